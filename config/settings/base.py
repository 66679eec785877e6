"""Settings shared by every environment.

Everything that differs between machines comes from the environment:
- DATABASE_URL: PostgreSQL in real deployments; SQLite file when unset (demo).
- REDIS_URL: Celery broker/result backend; when unset, tasks run in-process (eager).
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF

BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me")
DEBUG = False
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI files for /api/docs/, served locally
    "django_htmx",
    "template_partials",
    "csp",
    "axes",
    "annotation",
    "qc",
    "evaluation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Early, so every response (static files, axes' lockout page) carries the policy.
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The UI language from the browser (Accept-Language) or the language cookie (set_language).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before CSRF, which reads a form post: too large a request is refused before anything reads it.
    "config.middleware.RequestSizeLimitMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The signed-in user's own language and time zone win over the browser's (annotation.middleware).
    "annotation.middleware.UserPreferencesMiddleware",
    # After authentication (it counts per user) and CSRF (a refused post is not counted).
    "annotation.ratelimit.WriteRateLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A domain error (annotation.errors) a page did not catch answers with its status, never a 500.
    "annotation.middleware.DomainErrorMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes requires: it turns a locked-out login into a 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

# Plugin modules of task types kept outside annotation/task_types/ (each registers its task type with
# @register when imported). Only what is listed here is loaded: none in a deployment; the test settings
# list the tutorial's (docs/tutorial/task-type.md).
GOTONG_EXTRA_TASK_TYPES: tuple[str, ...] = ()
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # What django-template-partials sets up (its loader over Django's cached default loaders), with
            # the folders task types declare (TaskType.template_dir) searched last.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                                "annotation.task_types.loader.Loader",
                            ],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

DATABASES = {
    # An empty DATABASE_URL counts as unset (dj_database_url.config would give no ENGINE at all).
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several annotators write at once even in the demo; wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    # Counts failed logins per user name and IP and locks out after AXES_FAILURE_LIMIT.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# The lockout (429) page in the site's layout, with a clear message, instead of axes' plain text.
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
# The interface languages (catalogues in locale/, compiled .mo files kept in the repository so a
# machine without gettext runs translated). Each named in its own language, as a chooser shows them.
LANGUAGES = [
    ("en", "English"),
    ("id", "Bahasa Indonesia"),
    ("ar", "العربية"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Only when present: a checkout without project static files must still pass `check --deploy`.
STATICFILES_DIRS = [d for d in [BASE_DIR / "static"] if d.is_dir()]
STATIC_ROOT = BASE_DIR / "staticfiles"
MEDIA_ROOT = Path(os.environ.get("GOTONG_MEDIA_ROOT", BASE_DIR / "media"))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous caller gets 401 with `WWW-Authenticate: Token`, not a bare 403.
        "annotation.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Refuses JSON that decodes but can't be handled or stored (deep nesting, NUL, lone surrogates).
    "DEFAULT_PARSER_CLASSES": [
        "annotation.api.parsers.StrictJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Keyset pages of 100 rows by default, at most 500 (`?page_size=`), in each selector's order.
    "DEFAULT_PAGINATION_CLASS": "annotation.api.pagination.KeysetPagination",
    "EXCEPTION_HANDLER": "annotation.api.errors.exception_handler",
    # Writes only (annotation/api/throttling.py), at GOTONG_RATE_LIMITS["api_write"].
    "DEFAULT_THROTTLE_CLASSES": ["annotation.api.throttling.WriteRateThrottle"],
}
# API tokens (django-rest-knox): only a SHA-512 digest is stored, the key is shown once; each expires.
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=int(os.environ.get("GOTONG_API_TOKEN_TTL_HOURS", str(30 * 24)))),
    # The header scripts already send: `Authorization: Token <key>`.
    "AUTH_HEADER_PREFIX": "Token",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Gotong API",
    "DESCRIPTION": "Culturally grounded NLP dataset collection: projects, authoring, QC, agreement.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # /api/docs/: Swagger UI from drf-spectacular-sidecar's static files (no CDN); no online validator.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # The schema maps every endpoint and field: only for people who can sign in.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    # Items and assignments both have a `status`; name their enums instead of letting them collide.
    "ENUM_NAME_OVERRIDES": {
        "ItemStatusEnum": "annotation.models.items.Item.Status",
        "AssignmentStatusEnum": "annotation.models.assignments.Assignment.Status",
        "ConceptFileFormatEnum": "annotation.api.serializers.CONCEPT_FILE_FORMATS",
        "ExportFormatEnum": "qc.models.ExportRun.Format",
    },
}

# Content-Security-Policy (django-csp): scripts, styles and everything else from this site only, no
# inline code or styles anywhere (data in data- attributes, behaviour in static/js), no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
# Without Redis there is no worker: run tasks in the web process so the demo still works.
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A broker outage must not end a worker: it waits for Redis as long as it takes, at start and later
# (the default gives up after 100 tries and exits). Tasks running meanwhile go on: an LLM run's calls
# only need PostgreSQL and the endpoint, and waits out the limiter (evaluation/engine.py).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# A dead Redis is noticed within seconds (not the kernel's TCP timeout), by publishers and consumers.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 10,
    "socket_keepalive": True,
    "health_check_interval": 10,
}
# Starting work (an export, a run) answers 503 at once when the broker is unreachable; the check
# gives up after this long (qc/runs.py broker_check).
GOTONG_BROKER_CHECK_SECONDS = float(os.environ.get("GOTONG_BROKER_CHECK_SECONDS", "2"))

# The cache holds the write-rate counters (annotation/ratelimit.py): in Redis, every web process counts
# together; without it, each process counts its own.
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": "gotong"}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Background runs (qc/runs.py): a worker beats at least every HEARTBEAT seconds; a run whose last
# sign of life is older than STALE seconds lost its worker and is resumed by the sweeper, at most
# MAX_ATTEMPTS times in all. STALE should be several heartbeats, so a slow database is not a death.
GOTONG_RUN_HEARTBEAT_SECONDS = float(os.environ.get("GOTONG_RUN_HEARTBEAT_SECONDS", "10"))
GOTONG_RUN_STALE_SECONDS = float(os.environ.get("GOTONG_RUN_STALE_SECONDS", "60"))
GOTONG_RUN_MAX_ATTEMPTS = int(os.environ.get("GOTONG_RUN_MAX_ATTEMPTS", "3"))
GOTONG_SWEEP_SECONDS = float(os.environ.get("GOTONG_SWEEP_SECONDS", "30"))
# Reports of projects with more judgments are built by a worker and shown from a snapshot, rebuilt when
# the judgment count changed or the snapshot is older than the age (qc.reports.snapshots).
GOTONG_REPORT_INLINE_JUDGMENTS = int(os.environ.get("GOTONG_REPORT_INLINE_JUDGMENTS", "50000"))
GOTONG_REPORT_MAX_AGE_SECONDS = float(os.environ.get("GOTONG_REPORT_MAX_AGE_SECONDS", "600"))
# The aggregation model (annotation.aggregation) is fitted this long after the first judgment of a burst,
# so a burst of submits gives one fit.
GOTONG_AGGREGATION_DEBOUNCE_SECONDS = float(os.environ.get("GOTONG_AGGREGATION_DEBOUNCE_SECONDS", "30"))
# Run `celery -A config beat` once (or a worker with -B on a single machine) to send these.
CELERY_BEAT_SCHEDULE = {
    "sweep-runs": {
        "task": "qc.sweep_runs",
        "schedule": GOTONG_SWEEP_SECONDS,
        # While every worker is busy, sweeps queue up; only the latest one is worth running.
        "options": {"expires": GOTONG_SWEEP_SECONDS},
    },
    # Versions an import wrote wait for the search indexes until its task runs (annotation.search_index);
    # this run catches up the ones whose message was lost.
    "search-index-catch-up": {
        "task": "annotation.search_index_catch_up",
        "schedule": 300,
        "options": {"expires": 300},
    },
    # Requests only check the token they present; the expired ones are deleted here.
    "delete-expired-tokens": {"task": "annotation.delete_expired_tokens", "schedule": 3600},
    "sweep-llm-runs": {
        "task": "evaluation.sweep_runs",
        "schedule": GOTONG_SWEEP_SECONDS,
        "options": {"expires": GOTONG_SWEEP_SECONDS},
    },
}
# LLM runs (evaluation/engine.py) have their own queue and their own worker (`-Q llm`), so exports,
# reports and sweeps (queue `celery`, their worker `-Q celery`) never wait behind model calls. The
# processes are the same everywhere: docker/entrypoint.sh (`worker`, `worker-llm`, `beat`), which
# scripts/start runs too; tests/config/test_processes.py checks that every routed queue is consumed.
CELERY_TASK_ROUTES = {
    "evaluation.run_start": {"queue": "llm"},
    "evaluation.run_help": {"queue": "llm"},
}
# Threads per draining worker task, extra workers helping each run, attempts per call, backoff, and
# the lease of a claimed call (0: twice the endpoint's timeout + 30 s).
GOTONG_LLM_THREADS = int(os.environ.get("GOTONG_LLM_THREADS", "32"))
GOTONG_LLM_HELPERS = int(os.environ.get("GOTONG_LLM_HELPERS", "1"))
# The llm worker processes one project may hold at once (evaluation/fairness.py); keep it below the
# llm worker's concurrency so another project's run always finds one. 0: no limit.
GOTONG_LLM_PROJECT_SLOTS = int(os.environ.get("GOTONG_LLM_PROJECT_SLOTS", "2"))
GOTONG_LLM_MAX_ATTEMPTS = int(os.environ.get("GOTONG_LLM_MAX_ATTEMPTS", "4"))
GOTONG_LLM_BACKOFF_SECONDS = float(os.environ.get("GOTONG_LLM_BACKOFF_SECONDS", "1"))
GOTONG_LLM_BACKOFF_MAX_SECONDS = float(os.environ.get("GOTONG_LLM_BACKOFF_MAX_SECONDS", "60"))
GOTONG_LLM_LEASE_SECONDS = float(os.environ.get("GOTONG_LLM_LEASE_SECONDS", "0"))

# Writes per signed-in user ("N/s", "N/min", "N/hour"): API writes (POST, PUT, PATCH, DELETE), page
# form posts, and the authoring autosave. A person working fast stays far below them.
GOTONG_RATE_LIMITS = {
    "api_write": os.environ.get("GOTONG_API_WRITE_RATE", "600/min"),
    "page_write": os.environ.get("GOTONG_PAGE_WRITE_RATE", "300/min"),
    "autosave": os.environ.get("GOTONG_AUTOSAVE_RATE", "120/min"),
}

# The largest request body (JSON or form) in bytes; the file imports may add limits.IMPORT_BYTES.
GOTONG_MAX_REQUEST_BYTES = int(os.environ.get("GOTONG_MAX_REQUEST_BYTES", str(2 * 1024 * 1024)))

# How long a claimed assignment stays reserved for the annotator who opened it.
GOTONG_ASSIGNMENT_LEASE_SECONDS = int(os.environ.get("GOTONG_ASSIGNMENT_LEASE_SECONDS", "1800"))

# A judging plan of at least this many new assignments (PostgreSQL) is stored in blocks of about
# GOTONG_PLAN_BLOCK_SLOTS slots and written into the assignment table as judges reach it
# (annotation.services.planned_blocks); smaller plans are written at once.
GOTONG_PLAN_BLOCKS_FROM = int(os.environ.get("GOTONG_PLAN_BLOCKS_FROM", "50000"))
GOTONG_PLAN_BLOCK_SLOTS = int(os.environ.get("GOTONG_PLAN_BLOCK_SLOTS", "1000"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"axes": {"level": "WARNING"}},
}
