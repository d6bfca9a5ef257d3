#!/usr/bin/env bash
# `buf lint` of proto/ with the repository's buf.yaml (STANDARD rules; the
# two kept for wire compatibility are ignored on their lines, with the
# reason in shipgate.proto's header). Uses `buf` from PATH, else installs
# the npm package @bufbuild/buf (which ships the binary) into cargo's
# target directory once.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if command -v buf >/dev/null 2>&1; then
  buf=buf
else
  target="$(
    cargo metadata --format-version 1 --no-deps |
      grep -o '"target_directory":"[^"]*"' |
      sed 's/^"target_directory":"//; s/"$//'
  )"
  prefix="${target:-$root/target}/buf"
  buf="$prefix/node_modules/.bin/buf"
  if [ ! -x "$buf" ]; then
    npm install --silent --prefix "$prefix" @bufbuild/buf >/dev/null
  fi
fi
"$buf" lint
echo "buf lint: clean"
