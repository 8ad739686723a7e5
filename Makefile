# The entry points: `make run` serves the archive and the API; `make test` runs the whole suite; `make soak` the
# long campaigns at full size.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The pinned versions, with their hashes (`make lock` writes both from pyproject.toml): LOCK is the runtime and the
# `test` extra, what `make install` and CI install; PROD_LOCK the runtime alone, what the Dockerfile installs.
LOCK := requirements/lock.txt
PROD_LOCK := requirements/prod.txt
# The install is redone when the lock or either pyproject.toml changes (the project's, or the client's in clients/python).
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml clients/python/pyproject.toml $(LOCK) 2>/dev/null | cksum | cut -d' ' -f1)
# Where `make run` serves: `make run PORT=8001 HOST=0.0.0.0` (or HOST and PORT in the environment).
HOST ?= 127.0.0.1
PORT ?= 8000
# `make bench` measures against PostgreSQL; this is the machine's local one unless DATABASE_URL says otherwise.
BENCH_DATABASE_URL ?= $(or $(DATABASE_URL),postgres://root@127.0.0.1:5432/dvorak_bench)
# The Redis of the benches' servers (production's channel layer and cache; bench/fanout.py's keys carry a prefix of their own).
BENCH_REDIS_URL ?= $(or $(REDIS_URL),redis://127.0.0.1:6379/0)

.PHONY: install lock run migrate seed test test-seeds soak lint audit format bench bench-archive worker clean

install: $(STAMP)

# Every dependency from the lock, hashes checked; then the project and the client themselves, editable, adding nothing.
# `pip check` fails when pyproject.toml asks for something the lock lacks: run `make lock`.
$(STAMP): pyproject.toml clients/python/pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e . -e clients/python
	$(BIN)/python -m pip check
	rm -f $(VENV)/.installed-* && touch $@

# Rewrites the locks from pyproject.toml (and the client's): a version already pinned stays unless pyproject.toml now
# excludes it; `make lock UPGRADE=1` moves every pin to the newest release allowed. PROD_LOCK takes LOCK's versions,
# so the image runs what CI tested. Universal: the markers cover every platform, for Python 3.11 and newer.
LOCK_FLAGS = --quiet --universal --python-version 3.11 --generate-hashes --custom-compile-command 'make lock' \
	$(if $(UPGRADE),--upgrade)
lock:
	test -x $(BIN)/uv || { test -x $(BIN)/python || $(PYTHON) -m venv $(VENV); $(BIN)/python -m pip install --quiet uv; }
	@mkdir -p requirements
	$(BIN)/uv pip compile $(LOCK_FLAGS) pyproject.toml clients/python/pyproject.toml --extra test -o $(LOCK)
	$(BIN)/uv pip compile $(LOCK_FLAGS) pyproject.toml --constraint $(LOCK) -o $(PROD_LOCK)

migrate: install
	$(BIN)/python manage.py migrate --noinput

seed: migrate
	$(BIN)/python manage.py load_seed_decks

# `-v 0`: no access log of daphne's (its own line for each request beside the project's); the logs are the project's,
# LOG_FORMAT=console by default while DEBUG is on (README, "Logs and request ids").
run: seed
	@echo "Serving the archive (/admin/) and the API (/api/v1/; Swagger UI /api/v1/docs/, ReDoc /api/v1/redoc/) on http://$(HOST):$(PORT)/"
	$(BIN)/daphne -v 0 -b $(HOST) -p $(PORT) dvorak_site.asgi:application

worker: install
	$(BIN)/celery -A dvorak_site worker --loglevel=info

# Real PostgreSQL and Redis where they are reachable (CI sets them; locally they are found), else the embedded default.
# Two steps: every test but the `serial` ones, in parallel (pytest-xdist, TEST_WORKERS processes, each with its own
# test database, Redis prefixes and share of the connections: tests/conftest.py), then the `serial` ones (they count
# the machine's sockets and Redis clients) alone. Both run; the run fails if either did. The campaigns (`slow`) run at
# their small size (tests/sizes.py). The suite drives the ASGI app in its own process, where a connection that a
# request's thread took from the pool and left with that thread is not handed back (a server's threads hand theirs
# back): the pool is sized for the run and shared out between the workers.
TEST_WORKERS ?= 2
PYTEST_ARGS ?=
REPORTS := var/test-reports
TEST_ENV = eval "$$($(BIN)/python scripts/local_services.py)" && \
	export CACHE_KEY_PREFIX=dvorak-test-$$$$ CHANNELS_PREFIX=dvorak-test-$$$$ DB_POOL_MAX_SIZE=$${DB_POOL_MAX_SIZE:-40}

test: install
	@rm -rf $(REPORTS) && mkdir -p $(REPORTS)
	@$(TEST_ENV) && status=0; \
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal -m "not serial" --junitxml=$(REPORTS)/parallel.xml $(PYTEST_ARGS) || status=$$?; \
	$(BIN)/pytest -m serial --junitxml=$(REPORTS)/serial.xml $(PYTEST_ARGS) || status=$$?; \
	$(BIN)/python scripts/test_report.py $(REPORTS)/parallel.xml $(REPORTS)/serial.xml; exit $$status

# The tests that compare the project's data with the original texts; CI runs them in place, with ../shared beside.
test-seeds: install
	@$(TEST_ENV) && $(BIN)/pytest -m seeds $(PYTEST_ARGS)

# The campaigns at CI's full size (tests/sizes.py): 20 random games of each ruleset through the API, 300 games scanned
# for hidden cards, the write fuzz's 1,500 requests, Schemathesis with 100 examples an operation; also in parallel.
soak: install
	@rm -rf $(REPORTS)/soak.xml && mkdir -p $(REPORTS)
	@$(TEST_ENV) && export DVORAK_SOAK=1 && status=0; \
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal -m slow --junitxml=$(REPORTS)/soak.xml $(PYTEST_ARGS) || status=$$?; \
	$(BIN)/python scripts/test_report.py $(REPORTS)/soak.xml; exit $$status

# Ruff, then the import contracts of pyproject.toml ([tool.importlinter]): the layers, the engine free of Django,
# rulesets that import no other; then mypy ([tool.mypy]): the engine strictly, the core beneath it.
lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy

# The lock's pins against the known vulnerabilities (pip-audit; scripts/audit.py says what each exit status means).
# CI passes AUDIT_ARGS=--unreachable-ok: a vulnerability service out of reach is reported there, not a failure.
AUDIT_ARGS ?=
audit: install
	$(BIN)/python scripts/audit.py $(AUDIT_ARGS) $(LOCK)

format: install
	$(BIN)/ruff format .

bench: install
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python bench/eventstore.py
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python bench/replay.py
	DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python bench/commands.py
	DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python bench/cards.py
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python bench/scaling.py --profile
	DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python bench/fanout.py
	DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) FANOUT_GAMES=1250 FANOUT_SECONDS=30 \
		FANOUT_PHASES=reference,sockets $(BIN)/python bench/fanout.py
	DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python bench/live_tables.py

# The archive's pages and API reads at 27 decks and at 10,000 (bench/archive.py), through gunicorn. Its two
# databases are BENCH_DATABASE_URL's name with _archive27 and _archive10k; the first run fills them (about two
# minutes), later runs reuse them.
bench-archive: install
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	DATABASE_URL=$(BENCH_DATABASE_URL) $(BIN)/python bench/archive.py

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .mypy_cache .hypothesis
