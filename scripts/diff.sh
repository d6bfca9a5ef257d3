#!/usr/bin/env bash
# Builds shipgate and compares the agents between two commits; the client
# starts the daemon on demand. With no arguments it builds a small demo
# repository from examples/support-bot (a base and a head commit) in a
# temporary directory, compares those, and removes it; otherwise every
# argument goes to `shipgate-client diff --application`, e.g.:
#   scripts/diff.sh --workspace /path/to/repo --base origin/main --head HEAD
# Works wherever cargo puts its output (CARGO_TARGET_DIR included): the
# binaries' paths are read from cargo's own build messages.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# cargo reports each built executable as `"executable":"<path>"` on
# stdout; its progress (what it compiles) stays on stderr, so a first build
# shows what it is doing instead of minutes of silence.
if [ ! -x "$root/target/release/shipgate-client" ] && [ -z "${CARGO_TARGET_DIR:-}" ]; then
  echo "scripts/diff.sh: building shipgate (release) for the first time: several minutes on 2 cores; later runs start at once. Cargo's progress follows." >&2
fi
client="$(
  cargo build --release --message-format=json-render-diagnostics \
    --manifest-path "$root/Cargo.toml" -p shipgate-daemon -p shipgate-client |
    grep -o '"executable":"[^"]*/shipgate-client"' |
    sed 's/^"executable":"//; s/"$//' |
    tail -n 1
)"
if [ -z "$client" ] || [ ! -x "$client" ]; then
  echo "scripts/diff.sh: cargo did not report where it built shipgate-client" >&2
  exit 1
fi

if [ "$#" -gt 0 ]; then
  exec "$client" diff --application "$@"
fi

demo="$(mktemp -d "${TMPDIR:-/tmp}/shipgate-demo.XXXXXX")"
trap 'rm -rf "$demo"' EXIT
"$root/scripts/demo-repo.sh" "$demo"
echo "demo repository: $demo (base main, head add-refunds; removed on exit)" >&2
# Not exec: the trap removes the demo repository once the client is done.
status=0
"$client" diff --application --workspace "$demo" --base main --head add-refunds || status=$?
exit "$status"
