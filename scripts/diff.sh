#!/usr/bin/env bash
# Builds shipgate and compares the agents between two commits; the client
# starts the daemon on demand. With no arguments it builds a small demo
# repository from examples/support-bot (a base and a head commit) and
# compares those; otherwise every argument goes to `shipgate-client diff
# --application`, e.g.:
#   scripts/diff.sh --workspace /path/to/repo --base origin/main --head HEAD
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p shipgate-daemon -p shipgate-client
client="$root/target/release/shipgate-client"

if [ "$#" -gt 0 ]; then
  exec "$client" diff --application "$@"
fi

demo="$(mktemp -d "${TMPDIR:-/tmp}/shipgate-demo.XXXXXX")"
git -C "$demo" init -q -b main
git -C "$demo" config user.email demo@example.com
git -C "$demo" config user.name "shipgate demo"
mkdir -p "$demo/support_bot"
touch "$demo/support_bot/__init__.py"
cp "$root/examples/support-bot/base/agent.py" "$demo/support_bot/agent.py"
git -C "$demo" add -A && git -C "$demo" -c commit.gpgsign=false commit -q -m "support bot"
git -C "$demo" checkout -q -b add-refunds
cp "$root/examples/support-bot/head/agent.py" "$demo/support_bot/agent.py"
git -C "$demo" add -A && git -C "$demo" -c commit.gpgsign=false commit -q -m "let support refund orders"
echo "demo repository: $demo (base main, head add-refunds)" >&2
exec "$client" diff --application --workspace "$demo" --base main --head add-refunds
