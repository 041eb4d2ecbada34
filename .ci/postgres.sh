#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on 127.0.0.1 for the store tests, installing Debian's package if
# it is missing. Idempotent: a server this script already started is reused.
#
#   source .ci/postgres.sh        # exports SEQUENCE_BOT_TEST_POSTGRES_URL
#   eval "$(bash .ci/postgres.sh)" # the same, from a script that should not source it
#   bash .ci/postgres.sh stop      # stops the server and deletes its data
#
# Settings (environment): SEQUENCE_BOT_PG_PORT (default 54329), SEQUENCE_BOT_PG_DIR (default
# /tmp/sequence-bot-pg). The server runs as the `postgres` user when started by root (PostgreSQL refuses
# to run as root), trusts local connections and is only reachable on 127.0.0.1.

_sb_pg_main() {
    local port="${SEQUENCE_BOT_PG_PORT:-54329}"
    local dir="${SEQUENCE_BOT_PG_DIR:-/tmp/sequence-bot-pg}"
    local data="$dir/data" log="$dir/server.log"
    local url="postgres://sequence_bot@127.0.0.1:$port/sequence_bot_test"

    _sb_pg_bin() {
        local found
        found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)" || true
        if [ -n "$found" ] && [ -x "$found/pg_ctl" ]; then echo "$found"; fi
    }

    _sb_pg_as() { # run a command as the server's user
        if [ "$(id -u)" = 0 ]; then
            runuser -u postgres -- "$@"
        else
            "$@"
        fi
    }

    local bin
    bin="$(_sb_pg_bin)"
    if [ "${1:-}" = stop ]; then
        if [ -n "$bin" ] && [ -d "$data" ]; then
            _sb_pg_as "$bin/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true
        fi
        rm -rf "$dir"
        echo "PostgreSQL test server stopped" >&2
        return 0
    fi

    if [ -z "$bin" ]; then
        echo "installing PostgreSQL (Debian package)..." >&2
        export DEBIAN_FRONTEND=noninteractive
        if [ "$(id -u)" != 0 ]; then
            echo "error: PostgreSQL is not installed and installing it needs root" >&2
            return 1
        fi
        { apt-get update -qq && apt-get install -y -qq postgresql >/dev/null; } >&2 || {
            echo "error: apt-get install postgresql failed" >&2
            return 1
        }
        bin="$(_sb_pg_bin)"
        [ -n "$bin" ] || { echo "error: no pg_ctl after installing postgresql" >&2; return 1; }
    fi

    if ! "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" 2>/dev/null; then
        if [ ! -f "$data/PG_VERSION" ]; then
            rm -rf "$dir"
            mkdir -p "$dir"
            if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$dir"; fi
            _sb_pg_as "$bin/initdb" -D "$data" -U postgres --auth=trust --no-sync \
                --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
                cat "$dir/initdb.log" >&2
                echo "error: initdb failed" >&2
                return 1
            }
        fi
        # fsync off: a throwaway server for tests; max_connections for the concurrent tests.
        _sb_pg_as "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 start \
            -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir \
                -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
                -c max_connections=200" >/dev/null || {
            tail -n 20 "$log" >&2
            echo "error: the PostgreSQL server did not start" >&2
            return 1
        }
    fi

    local psql=("$bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres)
    if [ "$("${psql[@]}" -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'sequence_bot'")" != 1 ]; then
        "${psql[@]}" -c "CREATE ROLE sequence_bot LOGIN" >&2 || return 1
    fi
    if [ "$("${psql[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = 'sequence_bot_test'")" != 1 ]; then
        "${psql[@]}" -c "CREATE DATABASE sequence_bot_test OWNER sequence_bot" >&2 || return 1
    fi

    export SEQUENCE_BOT_TEST_POSTGRES_URL="$url"
    echo "PostgreSQL test server ready: $url" >&2
    echo "export SEQUENCE_BOT_TEST_POSTGRES_URL=$url"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    _sb_pg_main "$@"
else
    _sb_pg_main "$@" >/dev/null
fi
