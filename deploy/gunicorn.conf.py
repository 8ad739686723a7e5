"""gunicorn settings for both production servers; every value comes from the environment.

REST (WSGI, sync workers):      gunicorn -c deploy/gunicorn.conf.py dvorak_site.wsgi:application
Websockets (ASGI, uvicorn):     GUNICORN_WORKER_CLASS=dvorak_site.serving.UvicornWorker GUNICORN_BIND=0.0.0.0:8001 \\
                                    gunicorn -c deploy/gunicorn.conf.py dvorak_site.asgi:application
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count()))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 30))
# Recycle workers now and then (jittered, so not all at once): bounds what a leak could grow to.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 5000))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
