#!/bin/sh
# Container entry point.
#   web     migrate, create the first admin when GOTONG_ADMIN_* are set, then serve with gunicorn
#   worker  a Celery worker (no migrations: only the web container changes the schema)
#   beat    Celery beat: sends the sweeper of stopped runs (`qc.sweep_runs`); run exactly one
#   *       any other command, e.g. `python manage.py createsuperuser`
set -eu

wait_for_database() {
    # PostgreSQL may still be starting when the container comes up.
    i=0
    until python -c "import django; django.setup(); from django.db import connection; connection.ensure_connection()" \
        >/dev/null 2>&1; do
        i=$((i + 1))
        if [ "$i" -ge 30 ]; then
            echo "The database in DATABASE_URL is not reachable." >&2
            exit 1
        fi
        sleep 2
    done
}

case "${1:-web}" in
web)
    wait_for_database
    python manage.py migrate --noinput
    if [ -n "${GOTONG_ADMIN_USERNAME:-}" ]; then
        python manage.py create_admin --no-input --if-missing
    fi
    exec gunicorn config.wsgi:application \
        --bind "0.0.0.0:${PORT:-8000}" \
        --workers "${GUNICORN_WORKERS:-3}" \
        --timeout "${GUNICORN_TIMEOUT:-60}" \
        --access-logfile -
    ;;
worker)
    wait_for_database
    exec celery -A config worker --loglevel="${CELERY_LOGLEVEL:-INFO}" --concurrency="${CELERY_CONCURRENCY:-2}"
    ;;
beat)
    # The schedule file only remembers when each entry last ran; losing it with the container is harmless.
    exec celery -A config beat --loglevel="${CELERY_LOGLEVEL:-INFO}" --schedule=/tmp/celerybeat-schedule
    ;;
*)
    exec "$@"
    ;;
esac
