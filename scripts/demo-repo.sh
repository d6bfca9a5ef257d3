#!/usr/bin/env bash
# Makes the demo repository of the README's first command in DIR (which
# must not exist or be empty): examples/support-bot as two commits, the
# base on `main` and the head on `add-refunds`, where support gains a
# refund tool. Used by scripts/diff.sh and by the wheel's test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
demo="${1:?usage: scripts/demo-repo.sh DIR}"
mkdir -p "$demo"
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
