#!/usr/bin/env bash
# A cold `history` of a whole repository (issue 43): a fresh daemon with an
# empty store walks the first-parent history; prints the wall time, the
# daemon's phase totals and its peak RSS.
#
#   scripts/measure-history.sh /path/to/repository [BIN_DIR]
#
# BIN_DIR holds shipgate-daemon and shipgate-client (default:
# target/release; build them with `cargo build --release --workspace --bins`).
set -euo pipefail
repo=${1:?usage: scripts/measure-history.sh REPOSITORY [BIN_DIR]}
bin=${2:-target/release}
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/time -v "$bin/shipgate-daemon" serve --data-dir "$work/data" --socket "$work/sock" \
  >"$work/daemon.out" 2>"$work/daemon.err" &
for _ in $(seq 50); do [ -S "$work/sock" ] && break; sleep 0.1; done
start=$(date +%s.%N)
"$bin/shipgate-client" history --socket "$work/sock" --no-start --workspace "$repo" --quiet --json \
  >"$work/history.json"
end=$(date +%s.%N)
echo "cold history: $(echo "$end - $start" | bc) s, $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['commits_read'])" "$work/history.json") commits"
"$bin/shipgate-client" status --socket "$work/sock" --no-start | grep -E "^phases"
"$bin/shipgate-client" shutdown --socket "$work/sock" >/dev/null
wait
grep -E "Maximum resident|Percent of CPU|User time" "$work/daemon.err"
