"""Create the PostgreSQL database named in DATABASE_URL when it does not exist yet (SQLite: nothing to do)."""

import os
import sys

import dj_database_url
import psycopg
from psycopg import sql


def main() -> int:
    url = os.environ.get("DATABASE_URL", "")
    if not url:
        return 0
    config = dj_database_url.parse(url)
    if "postgresql" not in config["ENGINE"]:
        return 0
    params = {
        "host": config.get("HOST") or "127.0.0.1",
        "port": config.get("PORT") or 5432,
        "user": config.get("USER") or None,
        "password": config.get("PASSWORD") or None,
        # Any existing database will do to ask the server; "postgres" always exists.
        "dbname": "postgres",
    }
    name = config["NAME"]
    with psycopg.connect(**{k: v for k, v in params.items() if v is not None}, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"Created the PostgreSQL database {name}.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
