#!/usr/bin/env bash
# A scripted load check of a serving daemon (issue 16, item 9): CLIENTS
# concurrent clients each run ROUNDS warm diffs of one small repository
# through the real client; prints latency percentiles, and the daemon's RSS
# and thread count before and after the load. Loopback only (a Unix socket
# in a temporary directory); bounded in count; stops by itself.
#
#   scripts/load-check.sh [BIN_DIR] [CLIENTS] [ROUNDS]
#
# BIN_DIR holds shipgate-daemon and shipgate-client (default: the release
# build of this checkout, built when missing). The repository is a demo
# built from examples/support-bot, or LOAD_REPO (any clone) compared at
# LOAD_HEAD (default HEAD) against its first parent.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bin=${1:-}
clients=${2:-64}
rounds=${3:-20}
if [ -z "$bin" ]; then
  cargo build --release --quiet -p shipgate-daemon -p shipgate-client
  bin=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release
fi
work=$(mktemp -d)
trap 'kill "$daemon" 2>/dev/null || true; rm -rf "$work"' EXIT

head_rev=${LOAD_HEAD:-HEAD}
if [ -n "${LOAD_REPO:-}" ]; then
  repo=$LOAD_REPO
else
  repo="$work/repo"
  git init -q -b main "$repo"
  git -C "$repo" config user.email load@example.com
  git -C "$repo" config user.name load
  mkdir -p "$repo/support_bot"
  touch "$repo/support_bot/__init__.py"
  cp examples/support-bot/base/agent.py "$repo/support_bot/agent.py"
  git -C "$repo" add -A
  git -C "$repo" -c commit.gpgsign=false commit -q -m base
  cp examples/support-bot/head/agent.py "$repo/support_bot/agent.py"
  git -C "$repo" -c commit.gpgsign=false commit -q -am head
fi

socket="$work/d.sock"
"$bin/shipgate-daemon" serve --socket "$socket" --data-dir "$work/data" 2>"$work/daemon.log" &
daemon=$!
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done

rss() { awk '/^VmRSS/ {print $2" KB"}' "/proc/$daemon/status"; }
threads() { awk '/^Threads/ {print $2}' "/proc/$daemon/status"; }
diff_once() {
  SHIPGATE_SOCKET="$socket" "$bin/shipgate-client" --no-start diff --application \
    --workspace "$repo" --base "$head_rev~1" --head "$head_rev" --json >/dev/null
}
diff_once  # warm the cache
echo "before load: rss $(rss), threads $(threads)"

pids=()
for c in $(seq "$clients"); do
  (
    for _ in $(seq "$rounds"); do
      start=$(date +%s%N)
      if diff_once; then echo "ok $(( ($(date +%s%N) - start) / 1000000 ))"; else echo "error"; fi
    done
  ) >"$work/client-$c.log" &
  pids+=($!)
done
peak=0
running() { for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
while running; do
  now=$(awk '/^VmRSS/ {print $2}' "/proc/$daemon/status")
  [ "$now" -gt "$peak" ] && peak=$now
  sleep 0.2
done

cat "$work"/client-*.log | python3 -c '
import sys
lines = [l.split() for l in sys.stdin]
ok = sorted(int(l[1]) for l in lines if l[0] == "ok")
errors = sum(1 for l in lines if l[0] == "error")
def pct(p): return ok[min(len(ok) - 1, int(len(ok) * p))] if ok else 0
print(f"{len(ok)} answers, {errors} errors; latency ms p50 {pct(0.5)} p90 {pct(0.9)} p99 {pct(0.99)} max {ok[-1] if ok else 0}")
'
echo "peak rss during load: $peak KB"
sleep 2
echo "after load: rss $(rss), threads $(threads)"
