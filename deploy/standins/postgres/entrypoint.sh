#!/bin/sh
# At first start (an empty $PGDATA), initialises the database: superuser POSTGRES_USER
# (default postgres) with POSTGRES_PASSWORD, connections from other hosts authenticated by
# POSTGRES_HOST_AUTH_METHOD (default scram-sha-256 with a password; `trust` allows none), and
# POSTGRES_DB created when it is not the default. Then runs the command: `postgres [options]`.
set -eu
case "${1:-postgres}" in
  -*) set -- postgres "$@" ;;
esac
if [ "${1:-postgres}" != postgres ]; then
  exec "$@"
fi
[ $# -gt 0 ] && shift

user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
password=${POSTGRES_PASSWORD:-}
auth=${POSTGRES_HOST_AUTH_METHOD:-}
if [ -z "$auth" ]; then
  if [ -z "$password" ]; then
    echo "postgres: POSTGRES_PASSWORD is empty: set it, or POSTGRES_HOST_AUTH_METHOD=trust to allow connections without one" >&2
    exit 2
  fi
  auth=scram-sha-256
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if ! [ -w "$PGDATA" ]; then
    echo "postgres: PGDATA $PGDATA is not writable by uid $(id -u)" >&2
    exit 2
  fi
  chmod 700 "$PGDATA"
  pwfile=$(mktemp)
  trap 'rm -f "$pwfile"' EXIT
  printf '%s\n' "$password" > "$pwfile"
  if [ -n "$password" ]; then
    initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 \
      --auth-local=trust --auth-host="$auth" >&2
  else
    initdb -D "$PGDATA" -U "$user" --encoding=UTF8 --locale=C.UTF-8 \
      --auth-local=trust --auth-host="$auth" >&2
  fi
  rm -f "$pwfile"
  echo "host all all all $auth" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  if [ "$db" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >&2
    createdb -U "$user" -- "$db"
    pg_ctl -D "$PGDATA" -m fast -w stop >&2
  fi
fi
exec postgres -D "$PGDATA" "$@"
