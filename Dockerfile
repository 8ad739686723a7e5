# One image for the REST server (gunicorn, WSGI), the websocket server (gunicorn + uvicorn, ASGI), the Celery worker and beat; docker-compose.yml wires them together.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PYTHONPATH=/app
WORKDIR /app

# The runtime dependencies at the versions CI tested, every file checked against its hash (requirements/prod.txt,
# written by `make lock`); this layer is rebuilt only when the lock changes.
COPY requirements/prod.txt requirements/prod.txt
RUN pip install --require-hashes -r requirements/prod.txt
COPY . .
# The project itself, adding no dependency of its own: they all came from the lock.
RUN pip install --no-deps .
# The admin's and the API docs' (Swagger UI, ReDoc) files, which whitenoise serves when DEBUG is off.
RUN python manage.py collectstatic --noinput

RUN useradd --create-home dvorak && mkdir -p /app/var && chown -R dvorak /app/var
USER dvorak
EXPOSE 8000
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "dvorak_site.wsgi:application"]
