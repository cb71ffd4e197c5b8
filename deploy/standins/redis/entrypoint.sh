#!/bin/sh
# Runs the command; for redis-server, turns protected mode off (as the public image does), since
# other containers reach it over the container network. A later --protected-mode wins.
set -eu
case "${1:-redis-server}" in
  -*) set -- redis-server "$@" ;;
esac
if [ "${1:-redis-server}" = redis-server ]; then
  [ $# -gt 0 ] && shift
  # A configuration file, if given, must stay the first argument.
  if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
    conf=$1
    shift
    set -- redis-server "$conf" --protected-mode no "$@"
  else
    set -- redis-server --protected-mode no "$@"
  fi
fi
exec "$@"
