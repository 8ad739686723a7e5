# One image for the REST server (gunicorn, WSGI), the websocket server (gunicorn + uvicorn, ASGI), the Celery worker and beat; docker-compose.yml wires them together.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PYTHONPATH=/app
WORKDIR /app

COPY pyproject.toml README.md ./
COPY dvorak_core ./dvorak_core
COPY dvorak_engine ./dvorak_engine
COPY dvorak_kit ./dvorak_kit
COPY dvorak_site ./dvorak_site
COPY games ./games
COPY decks ./decks
COPY ccg ./ccg
COPY proposals ./proposals
RUN pip install .
COPY . .
# The admin's and the API docs' (Swagger UI, ReDoc) files, which whitenoise serves when DEBUG is off.
RUN python manage.py collectstatic --noinput

RUN useradd --create-home dvorak && mkdir -p /app/var && chown -R dvorak /app/var
USER dvorak
EXPOSE 8000
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "dvorak_site.wsgi:application"]
