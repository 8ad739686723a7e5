#!/bin/sh
# Runs once, when the postgres container initialises an empty volume: creates the role the app runs as.
# The tables belong to POSTGRES_USER, which runs the migrations; after each migrate the app's `post_migrate`
# handler grants this role the usual rights on every table, but only SELECT and INSERT on the event table.
# Not the owner, it can neither rewrite events nor disable the triggers that refuse it.
# Its password comes from the environment (docker-compose.yml passes .env's DVORAK_APP_DB_PASSWORD): none is
# written here, and without one the initialisation stops rather than create the role with a known password.
set -eu
: "${DVORAK_APP_DB_PASSWORD:?set DVORAK_APP_DB_PASSWORD (in .env, for docker compose)}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v role="${DVORAK_APP_DB_USER:-dvorak_app}" -v password="$DVORAK_APP_DB_PASSWORD" <<'SQL'
CREATE ROLE :"role" LOGIN PASSWORD :'password';
SQL
