"""gunicorn settings for both production servers; every value comes from the environment.

REST (WSGI, sync workers):      gunicorn -c deploy/gunicorn.conf.py dvorak_site.wsgi:application
Websockets (ASGI, uvicorn):     GUNICORN_WORKER_CLASS=dvorak_site.serving.UvicornWorker GUNICORN_BIND=0.0.0.0:8001 \\
                                    gunicorn -c deploy/gunicorn.conf.py dvorak_site.asgi:application
"""

import multiprocessing
import os

from dvorak_kit import logs

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count()))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 30))
# Recycle workers now and then (jittered, so not all at once): bounds what a leak could grow to.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 5000))
max_requests_jitter = max_requests // 10
# gunicorn's own lines (the master's and the workers') through the project's formatter (dvorak_kit/logs.py), as
# Django's; no access log of gunicorn's or uvicorn's: each request's line is the project's (dvorak.request), once.
logconfig_dict = logs.configure(
    os.environ.get("LOG_FORMAT") or ("console" if os.environ.get("DJANGO_DEBUG", "1").lower() in {"1", "true", "yes", "on"}
                                     else "json"),
    os.environ.get("LOG_LEVEL", "INFO"))
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


# /metrics in multiprocess mode (README, "Metrics"): with PROMETHEUS_MULTIPROC_DIR set, every worker writes its
# metrics to files there and any worker reads them all back. The directory is emptied when the server starts (what
# a previous run left would be counted again), so give each server a directory of its own; a worker that stops has
# its live gauges (open websockets and streams) forgotten.
def on_starting(server):
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        os.makedirs(directory, exist_ok=True)
        for name in os.listdir(directory):
            if name.endswith(".db"):
                os.remove(os.path.join(directory, name))


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
