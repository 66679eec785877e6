#!/bin/sh
# Container entry point.
#   web         migrate, create the first admin when GOTONG_ADMIN_* are set, then serve with gunicorn
#   worker      the Celery worker of queue `celery`: exports, reports, gold recomputes, sweeps
#   worker-llm  the Celery worker of queue `llm`: model runs (each holds a pool process while it lasts)
#   beat        Celery beat: sends the sweepers of stopped runs; run exactly one
#   *           any other command, e.g. `python manage.py createsuperuser`
# The workers and beat are the same processes scripts/start runs (it calls this script); every queue
# the code routes to is consumed by one of them (tests/config/test_processes.py). No migrations in the
# workers: only the web container changes the schema. Whatever starts them restarts them when they die
# (compose: `restart: unless-stopped`; scripts/start: a loop).
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
    exec celery -A config worker -Q celery --hostname=qc@%h --without-gossip --without-mingle \
        --loglevel="${CELERY_LOGLEVEL:-INFO}" --concurrency="${CELERY_CONCURRENCY:-2}"
    ;;
worker-llm)
    wait_for_database
    # Keep the concurrency above GOTONG_LLM_PROJECT_SLOTS, so one project's runs never hold every process.
    exec celery -A config worker -Q llm --hostname=llm@%h --without-gossip --without-mingle \
        --loglevel="${CELERY_LOGLEVEL:-INFO}" --concurrency="${CELERY_LLM_CONCURRENCY:-4}"
    ;;
beat)
    # The schedule file only remembers when each entry last ran; losing it is harmless.
    exec celery -A config beat --loglevel="${CELERY_LOGLEVEL:-INFO}" \
        --schedule="${CELERY_BEAT_SCHEDULE_FILE:-/tmp/celerybeat-schedule}"
    ;;
*)
    exec "$@"
    ;;
esac
