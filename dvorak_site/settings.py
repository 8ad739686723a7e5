"""Settings come from the environment; with nothing set, the embedded default runs on one machine.

Embedded default: a SQLite file under ``var/``, the in-memory channel layer, Celery tasks run eagerly.
With ``DATABASE_URL`` the store of record is PostgreSQL; with ``REDIS_URL`` the channel layer, the cache and
Celery's broker are Redis. Variables are read with django-environ, from the environment and then from an
optional ``.env`` file at the project root (``DJANGO_ENV_FILE`` names another; a variable already set wins).
README.md lists them.
"""

import sys
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from dvorak_kit import logs

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
ENV_FILE = Path(env.str("DJANGO_ENV_FILE", default=str(BASE_DIR / ".env")))
if ENV_FILE.is_file():
    environ.Env.read_env(ENV_FILE, overwrite=False)

VAR_DIR = Path(env.str("DVORAK_VAR_DIR", default=str(BASE_DIR / "var")))

DEVELOPMENT_SECRET_KEY = "dvorak-development-secret-key-never-use-in-production"
# An empty value (as in .env.example) counts as unset.
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or DEVELOPMENT_SECRET_KEY
DEBUG = env.bool("DJANGO_DEBUG", default=True)
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_DEBUG is off but DJANGO_SECRET_KEY is the development key: set a secret key of your own."
    )

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

# --- HTTPS: on by default when DEBUG is off (`manage.py check --deploy` is clean). The service sits behind a
# TLS proxy that sets X-Forwarded-Proto; DJANGO_SECURE_SSL_REDIRECT=0 and DJANGO_SECURE_COOKIES=0 serve plain
# HTTP on localhost (.env.example does so for docker compose). The health check answers before any of this
# (dvorak_site/middleware.py), so probes over plain HTTP work either way.
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=not DEBUG)
# "HEADER,value": a request is HTTPS when the proxy says so; empty trusts no header (no proxy in front).
_proxy_ssl_header = env.tuple(
    "DJANGO_SECURE_PROXY_SSL_HEADER", default=() if DEBUG else ("HTTP_X_FORWARDED_PROTO", "https")
)
if _proxy_ssl_header and len(_proxy_ssl_header) != 2:
    raise ImproperlyConfigured("DJANGO_SECURE_PROXY_SSL_HEADER is 'HEADER,value', e.g. HTTP_X_FORWARDED_PROTO,https.")
SECURE_PROXY_SSL_HEADER = tuple(_proxy_ssl_header) or None

INSTALLED_APPS = [
    # daphne's app only makes `manage.py runserver` serve ASGI; it loads Twisted (about 40 MB) into every process
    # that has it, so the servers (gunicorn, uvicorn, `python -m daphne`), which do not need it, go without.
    *(["daphne"] if "runserver" in sys.argv[1:2] else []),
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",  # API tokens: only a hash is stored; each expires and can be revoked (accounts/, README)
    "axes",  # failed sign-ins counted per account and per address, on the site, the admin and the API
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from here, not from a CDN
    "channels",
    "corsheaders",
    "dvorak_kit.eventstore",
    "dvorak_kit.idempotency",
    "decks",
    "ccg",
    "games",
    "proposals",
    "web",
    "accounts",
    "community",  # watching decks, their notices, designer claims (between accounts and games: README's layers)
]

MIDDLEWARE = [
    # Outermost: every answer gets its X-Request-ID and one log line, an API path's 5xx the JSON error shape.
    "dvorak_site.middleware.RequestLogMiddleware",
    # First: a preflight is answered here, and every /api/ answer, the health check's and a 413 among them, gets
    # its CORS headers (below).
    "dvorak_site.metrics.MetricsMiddleware",  # next: times every answer; /metrics answered before the host check
    "corsheaders.middleware.CorsMiddleware",
    "dvorak_site.middleware.HealthCheckMiddleware",  # before the host check and the HTTPS redirect
    "dvorak_site.middleware.RateLimitHeadersMiddleware",  # RateLimit-* on every API answer but the health check's
    "dvorak_site.middleware.ApiBodyLimitMiddleware",  # an API body too large: a JSON 413, before anything reads it
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # the admin's and the API docs' CSS and JS, from one ASGI process
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: a sign-in refused for too many failures becomes the lockout page (accounts/signin_limits.py).
    "accounts.middleware.SignInLimitMiddleware",
]

ROOT_URLCONF = "dvorak_site.urls"
# The site's own sign-in page (the admin keeps its own); after signing in or out, the home page.
LOGIN_URL = "web:sign-in"
# A deck's edit page (and the admin's change form) sends about a dozen fields a card; a deck holds up to 2000
# cards, so Django's default of 1000 fields would refuse decks of more than ~80 cards.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 30000
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "dvorak_site" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context_processors.notices",  # the header's count of unread notices
            ],
        },
    },
]
WSGI_APPLICATION = "dvorak_site.wsgi.application"
ASGI_APPLICATION = "dvorak_site.asgi.application"

# --- CORS (django-cors-headers): the API answers pages of any origin, the token being the credential; no cookie
# is asked for (no Access-Control-Allow-Credentials), so a page elsewhere never acts with a visitor's session, and
# the session-cookie pages outside /api/ get no CORS headers at all. CORS_ALLOWED_ORIGINS (comma-separated origins,
# "https://app.example.org") narrows the API to those; empty, any origin.
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])
CORS_ALLOW_ALL_ORIGINS = not CORS_ALLOWED_ORIGINS
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = ["authorization", "content-type", "idempotency-key", "if-match", "if-none-match",
                      "last-event-id", "x-request-id"]
CORS_EXPOSE_HEADERS = ["ETag", "Location", "Link", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining",
                       "RateLimit-Reset", "Idempotency-Key", "X-Request-ID"]

# --- database: PostgreSQL is the store of record; SQLite is the embedded default.
DATABASE_URL = env.str("DATABASE_URL", default="")
if DATABASE_URL:
    DATABASES = {"default": env.db_url_config(DATABASE_URL)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": VAR_DIR / "dvorak.sqlite3"}}
# DB_CONN_MAX_AGE (seconds; e.g. 600) keeps one connection per thread open between requests: right for WSGI sync
# workers (gunicorn, one request at a time per process), as the REST side runs in production (README).
DB_CONN_MAX_AGE = env.int("DB_CONN_MAX_AGE", default=0)
if "postgresql" in DATABASES["default"]["ENGINE"] and DB_CONN_MAX_AGE:
    DATABASES["default"]["CONN_MAX_AGE"] = DB_CONN_MAX_AGE
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
elif "postgresql" in DATABASES["default"]["ENGINE"]:
    # Under ASGI every request runs in a thread of its own, so persistent per-thread connections would pile up
    # (one per request thread until PostgreSQL refuses more): each process keeps a pool instead.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN_SIZE", default=1),
        "max_size": env.int("DB_POOL_MAX_SIZE", default=10),
        "timeout": env.float("DB_POOL_TIMEOUT", default=10.0),
    }
elif "sqlite3" in DATABASES["default"]["ENGINE"]:
    # Writers wait for each other (20 s) and take the write lock when their transaction begins.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20, "transaction_mode": "IMMEDIATE", **DATABASES["default"].get("OPTIONS", {})
    }
# Migrations run as the tables' owner; the app should run as another role (README, "Running it for real").
# Named here, the role gets its rights after every migrate: only SELECT and INSERT on the event table.
DATABASE_RUNTIME_ROLE = env.str("DATABASE_RUNTIME_ROLE", default="")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache (throttling) and Celery's broker. The API carries on while Redis is away
# (dvorak_kit/outage.py): the cache falls back to each process's memory, live updates wait and then catch up.
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "dvorak_kit.channel_layer.ResilientRedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_connect_timeout": 2}],
                "prefix": env.str("CHANNELS_PREFIX", default="dvorak"),
                # Messages a socket's channel may hold waiting; channels-redis drops group messages beyond it
                # (the socket's idle resync makes such a drop good, see games/consumers.py).
                "capacity": env.int("CHANNELS_CAPACITY", default=100),
                # Seconds a group membership lives in Redis without being renewed (a socket renews it on resync).
                "group_expiry": env.int("CHANNELS_GROUP_EXPIRY", default=86400),
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "dvorak_kit.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="dvorak"),
            # A Redis that hangs rather than refuses costs a request this long, once per retry interval.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# A game followed live in a process that has heard nothing for this long re-reads its version and its readers get
# what they missed, so a dropped group message is made good within this time even when no later one comes
# (games/consumers.py, LiveHub).
LIVE_RESYNC_SECONDS = env.float("LIVE_RESYNC_SECONDS", default=5.0)
# The threads of a server process that do its live readers' database work: their token checks, their games' lookups
# and reads (dvorak_kit/db_threads.py), side by side rather than one after another.
LIVE_DB_THREADS = env.int("LIVE_DB_THREADS", default=4)
# A game followed live in a process whose game has not moved for this long has its state let go there (read again
# at its next event): the process keeps the states of the games being played (games/consumers.py, GameTail).
LIVE_TAIL_IDLE_SECONDS = env.float("LIVE_TAIL_IDLE_SECONDS", default=30.0)
# An HTTP stream (dvorak_site/streams.py) that has sent nothing for this long sends a keep-alive (an empty NDJSON
# line, an SSE comment), so that proxies and clients see the connection alive (docs/api.md promises one within 10 s).
STREAM_KEEPALIVE_SECONDS = env.float("STREAM_KEEPALIVE_SECONDS", default=8.0)

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=REDIS_URL or "cache+memory://")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# How soon Redis gives an unacknowledged task (a killed worker's) to another worker. Redis's own default is an hour;
# five minutes is well above the longest task (a version build is one transaction: under a second, measured, for a
# 300-card set taking 200 changes at once) and above the build's 60 s grouping countdown, which a worker holds unacknowledged: a timeout
# shorter than a countdown would deliver the task twice. "visibility_timeout=30,..." in the environment overrides.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 300,
    **{key: int(value) for key, value in env.dict("CELERY_BROKER_TRANSPORT_OPTIONS", default={}).items()},
}
# Beat: CCG set changes whose deadline has passed are decided (silence is no objection); accepted changes whose
# build message was lost (Redis away at commit, a purged queue) get a build.
# The server's clock and computer players (games/background.py): where they run (``thread``: in the server's own
# process, the default where Celery runs eagerly, as under `make run`; ``celery``: on the worker, beat sending the
# clock's sweep), how often the clock looks for games whose time has run out, and how long a computer player
# thinks before it moves.
LIVE_TABLES_RUNNER = env.str("LIVE_TABLES_RUNNER", default="")
CLOCK_SWEEP_SECONDS = env.float("CLOCK_SWEEP_SECONDS", default=0.5)
BOT_THINK_SECONDS = env.float("BOT_THINK_SECONDS", default=0.8)

CELERY_BEAT_SCHEDULE = {
    "expire-due-clocks": {"task": "games.expire_due_clocks", "schedule": 1.0},
    "close-due-card-set-changes": {"task": "decks.ccg.close_due_card_set_changes", "schedule": 15 * 60.0},
    "queue-missing-card-set-versions": {"task": "decks.ccg.queue_missing_card_set_versions", "schedule": 5 * 60.0},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("DJANGO_STATIC_ROOT", default=str(VAR_DIR / "static")))
if DEBUG:  # whitenoise serves from the apps' own folders then; with DEBUG off, `manage.py collectstatic` fills it
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)

# --- email: password resets and CCG notices. The console backend (the mail printed in the server's log) by
# default; SMTP with EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and the EMAIL_* below.
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="dvorak@localhost")
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
# With django.core.mail.backends.filebased.EmailBackend: the folder each mail is written to, a file each.
EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH", default=str(VAR_DIR / "mail"))
# A password reset link works this long (Django's default is three days).
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=3 * 60 * 60)

# --- accounts: API tokens (django-rest-knox). A token is "dvorak_" and 64 hex digits; the database keeps its
# SHA-512 and its first 15 characters (to find it, and for its owner to tell tokens apart), never the token.
# Each use moves its expiry TOKEN_TTL_DAYS ahead (written at most once an hour); one unused that long expires.
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=env.float("TOKEN_TTL_DAYS", default=30)),
    "AUTO_REFRESH": True,
    "MIN_REFRESH_INTERVAL": 60 * 60,
    "TOKEN_PREFIX": "dvorak_",
    "AUTH_HEADER_PREFIX": "Token",
}
# Failed sign-ins (django-axes): after SIGNIN_FAILURE_LIMIT failures in a row for one username, or from one address,
# further attempts for it are refused (429, the site's lockout page, or the API's `throttled`) for
# SIGNIN_COOLOFF_MINUTES; a success for an account clears its count. The address is the client's as the rate
# limits see it (DRF_NUM_PROXIES behind a proxy).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_ENABLED = env.bool("SIGNIN_LIMITS", default=True)
# axes.W002 looks for its own middleware by name; accounts.middleware.SignInLimitMiddleware is that middleware.
SILENCED_SYSTEM_CHECKS = ["axes.W002"]
AXES_FAILURE_LIMIT = env.int("SIGNIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.float("SIGNIN_COOLOFF_MINUTES", default=15))
# "username,ip_address": each counted on its own. Behind a NAT (a school, an office) the address's count is everyone's:
# raise the limit, or count by username alone.
AXES_LOCKOUT_PARAMETERS = env.list("SIGNIN_LOCKOUT_BY", default=["username", "ip_address"])
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.signin_limits.lockout_response"
AXES_CLIENT_IP_CALLABLE = "accounts.signin_limits.client_address"
AXES_VERBOSE = False  # its lines would name the username and address on every failure; ours say it once
AXES_DISABLE_ACCESS_LOG = True  # no table row for every successful sign-in

# How long a process trusts a token it has read (dvorak_kit/api/authentication.py): a token deleted elsewhere
# still works on other processes for at most this long.
TOKEN_CACHE_SECONDS = env.float("TOKEN_CACHE_SECONDS", default=5.0)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # A token is read from the database at most once per TOKEN_CACHE_SECONDS per process.
        "dvorak_kit.api.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": [
        # Counted in the process, shared with Redis in batches (dvorak_kit/api/throttling.py).
        "dvorak_kit.api.throttling.AnonRateThrottle",
        "dvorak_kit.api.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("THROTTLE_ANON", default="120/min"),
        "user": env.str("THROTTLE_USER", default="1200/min"),
    },
    # Behind nginx (docker-compose.yml) the client's address is the last one nginx adds to X-Forwarded-For: 1.
    # Unset, the anonymous throttle would count every client as the proxy's address.
    "NUM_PROXIES": env.int("DRF_NUM_PROXIES", default=None),
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "dvorak_kit.api.exceptions.exception_handler",
    # Bodies are JSON (API.md); anything else is a 415, as the schema says.
    "DEFAULT_PARSER_CLASSES": ["dvorak_kit.api.parsers.JSONParser"],
    # Escape what is not ASCII in answers: an error that quotes a lone surrogate ("\ud800") from the request
    # still encodes.
    "UNICODE_JSON": False,
    "DEFAULT_SCHEMA_CLASS": "dvorak_kit.api.schema.DvorakAutoSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Dvorak service API",
    "DESCRIPTION": (
        "Deck archive and game server for Dvorak, the blank-card game. Every error answers "
        "`{\"error\": {\"code\", \"message\", \"details\"?, \"request_id\"}}` (the `Error` schema); every answer "
        "has an `X-Request-ID` header (the client's own when sane, else a new one). The game commands "
        "(`POST /api/v1/games/{id}/commands/`) are described one by one in the repository's `docs/api.md`, "
        "section \"Commands\"."
    ),
    "VERSION": "1.1",  # the API's version as docs/api.md states it (tests/api/test_schema.py holds them together)
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # One name per choice set that several components share.
    "ENUM_NAME_OVERRIDES": {
        "DeckKindEnum": "decks.models.Deck.KIND_CHOICES",
        "DeckKindInputEnum": ["deck", "card_set"],
        "DeckStatusEnum": ["", "unfinished", "untested", "playable", "nomic", "CCG set", "CCG deck"],
        "CardTypeEnum": ["Thing", "Action"],
        "ProposeTypeEnum": ["propose"],  # every proposal variant's `type` (inlined: one value)
        "HealthStatusEnum": ["ok", "degraded", "unavailable"],  # /health/ and /health/ready/
    },
    # Swagger UI (/api/v1/docs/) and ReDoc (/api/v1/redoc/) load their JS and CSS from drf-spectacular-sidecar's
    # static files, served by whitenoise: the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No "valid" badge fetched from validator.swagger.io: it would send the schema's address out.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "dvorak_kit.api.schema.inline_single_value_enums",
        "dvorak_kit.api.schema.rate_limit_header_components",
    ],
}

# Snapshots of a stream's state are taken every this many events (a cache: deleting them loses nothing).
EVENTSTORE_SNAPSHOT_EVERY = env.int("EVENTSTORE_SNAPSHOT_EVERY", default=100)
# Under ASGI, the threads of a process that carry out ordinary game commands (games/api/fast.py); each keeps a
# database connection while it works. 2 answered the most on 2 cores (bench/README.md).
COMMAND_THREADS = env.int("DVORAK_COMMAND_THREADS", default=2)
# The live-update publisher sends at most one batch to Redis each this many seconds (dvorak_kit/publisher.py): an
# idle server's updates leave at once, a busy server's gather, several to a batch.
PUBLISH_INTERVAL_SECONDS = env.float("DVORAK_PUBLISH_INTERVAL_SECONDS", default=0.008)
# The game states each process keeps in memory, the most recently used (games/services.py): a command on one of them
# is decided at once, one on any other first reads and replays its game (bench/README.md: 0.8 against 3-6 ms a
# command). Each costs what its game holds, about a quarter of a megabyte for a game of a 300-card deck.
STATE_CACHE_GAMES = env.int("DVORAK_STATE_CACHE_GAMES", default=512)
# How long such a thread keeps a connection from the process's pool between commands before handing it back.
COMMAND_CONNECTION_SECONDS = env.float("DVORAK_COMMAND_CONNECTION_SECONDS", default=60.0)
# The event store prepares its statements on the server once per connection; turn this off behind PgBouncer in
# transaction pooling mode (a prepared statement lives on one server connection only).
EVENTSTORE_PREPARED_STATEMENTS = env.bool("EVENTSTORE_PREPARED_STATEMENTS", default=True)

# --- logs (dvorak_kit/logs.py): one JSON object a line by default, lines for a person at a terminal with
# LOG_FORMAT=console (the default while DEBUG is on, as under `make run`). Every server's and library's logger comes
# out through the same formatter, with the request's id and what else the request has bound.
LOG_FORMAT = env.str("LOG_FORMAT", default="console" if DEBUG else "json")
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
try:
    LOGGING = logs.configure(LOG_FORMAT, LOG_LEVEL)
except ValueError as error:
    raise ImproperlyConfigured(str(error)) from error
# The worker's and beat's logs come out through the same configuration (dvorak_site/celery.py), not Celery's own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Prometheus metrics at /metrics (dvorak_kit/metrics.py, dvorak_site/metrics.py; README, "Metrics"): observed
# unless METRICS_ENABLED is off; answered to the networks listed (by default the host's own: loopback and the
# private ranges), and only with `Authorization: Bearer <METRICS_TOKEN>` when a token is set.
METRICS_ENABLED = env.bool("METRICS_ENABLED", default=True)
METRICS_ALLOWED_NETWORKS = env.list(
    "METRICS_ALLOWED_NETWORKS", default=["127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"])
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

# `make bench` serves a bare one-INSERT endpoint to compare commands with; never on in a real deployment.
BENCH_ENDPOINTS = env.bool("DVORAK_BENCH_ENDPOINTS", default=False)
