"""Print shell exports for the PostgreSQL and Redis that are reachable on this machine, for `make test`.

A variable already set is kept. PostgreSQL is tried as the current user on 127.0.0.1:5432 (PGUSER/PGHOST/PGPORT
change that), Redis on 127.0.0.1:6379; what does not answer within a second is left out, and the suite then
runs on the embedded default and says so.
"""

import getpass
import os
import shlex
import socket


def postgres_url() -> str | None:
    host = os.environ.get("PGHOST", "127.0.0.1")
    port = os.environ.get("PGPORT", "5432")
    user = os.environ.get("PGUSER", getpass.getuser())
    try:
        import psycopg

        with psycopg.connect(host=host, port=port, user=user, dbname="postgres", connect_timeout=1):
            pass
    except Exception:  # unreachable, or no role for this user: the embedded default it is
        return None
    return f"postgres://{user}@{host}:{port}/dvorak_local"


def redis_url() -> str | None:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            if not conn.recv(16).startswith(b"+PONG"):
                return None
    except OSError:
        return None
    return "redis://127.0.0.1:6379/0"


def main() -> None:
    for name, find in (("DATABASE_URL", postgres_url), ("REDIS_URL", redis_url)):
        value = os.environ.get(name) or find()
        if value:
            print(f"export {name}={shlex.quote(value)}")


if __name__ == "__main__":
    main()
