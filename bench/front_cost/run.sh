#!/usr/bin/env bash
# The front's own cost per request (issue 26): one process of each server answering a
# trivial Flask route, 4 keep-alive clients x 1,000 requests, server CPU per request from
# /proc. Run from the project root after make install and pip install -e '.[bench]'.
set -u
ROOT=$PWD; H=$(cd "$(dirname "$0")" && pwd); cd "$H"
cpu() { local t=0; for p in $(pgrep -g "$1"); do set -- $(awk '{print $14, $15}' /proc/$p/stat 2>/dev/null); t=$((t+${1:-0}+${2:-0})); done; echo $t; }
measure() { # label, then the server command
  local label=$1; shift
  PYTHONPATH=$ROOT setsid "$@" >/dev/null 2>&1 &
  local P=$!; sleep 3
  local c0; c0=$(cpu $P); local r; r=$("$ROOT/.venv/bin/python" client.py 18893 1000 4); local c1; c1=$(cpu $P)
  echo "$label $r server_cpu_ms_per_request=$(python3 -c "print(round(1000*($c1-$c0)/$(getconf CLK_TCK)/4000,3))") $(uptime | sed 's/.*load/load/')"
  kill -- -$P; sleep 1
}
for round in 1 2; do
  for kind in a2wsgi bridge; do
    BRIDGE=$kind measure "uvicorn+$kind" "$ROOT/.venv/bin/uvicorn" --factory app:create_app --loop uvloop --port 18893 --workers 1 --log-level warning --no-access-log
  done
  measure gunicorn-gthread "$ROOT/.venv/bin/gunicorn" -w 1 -k gthread --threads 8 -b 127.0.0.1:18893 app:flask_app
done
