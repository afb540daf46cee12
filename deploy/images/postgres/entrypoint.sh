#!/bin/sh
# First start: create the cluster, its user and database (as the official image does);
# every start: run the server in the foreground on all addresses.
set -eu
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "set POSTGRES_PASSWORD" >&2
    exit 1
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    secret=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" > "$secret"
    initdb --username="$POSTGRES_USER" --pwfile="$secret" --auth-local=trust \
        --auth-host=scram-sha-256 --encoding=UTF8 --no-instructions >/dev/null
    rm -f "$secret"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    if [ "$POSTGRES_DB" != "postgres" ]; then
        pg_ctl --wait --silent -o "-c listen_addresses=''" start
        psql --username="$POSTGRES_USER" --dbname=postgres --quiet \
            --command="CREATE DATABASE \"$POSTGRES_DB\""
        pg_ctl --wait --silent stop
    fi
fi
exec postgres -c listen_addresses='*'
