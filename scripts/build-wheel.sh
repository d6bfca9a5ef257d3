#!/usr/bin/env bash
# Builds the Python wheel of shipgate for this machine: one wheel carrying
# both programs (`shipgate-client` built by maturin, `shipgate-daemon` as
# the wheel's data, installed beside it), tagged for the
# oldest manylinux/musllinux (or macOS) its binaries run on, so
#   pipx install shipgate_agents-*.whl      uv tool install shipgate_agents-*.whl
# give both programs side by side. maturin (the build backend named in
# pyproject.toml) is installed once into a venv in cargo's target
# directory (pip reaches PyPI the first time).
#
#   scripts/build-wheel.sh [--dev|--check] [--out DIR]
#
# The default is the release profile (what ships); --dev builds cargo's
# dev profile, --check the quickest real build (no optimisation, no debug
# information: what the tests install; not for shipping). The wheel goes to
# DIR (default: target/wheels); its path is printed last, on stdout.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

profile=(--release)
out="$root/target/wheels"
while [ "$#" -gt 0 ]; do
  case "$1" in
    --dev) profile=(--profile dev) ;;
    --check) profile=(--profile wheel-check) ;;
    --out) out="${2:?--out needs a directory}"; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/build-wheel.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

target="$(
  cargo metadata --format-version 1 --no-deps |
    grep -o '"target_directory":"[^"]*"' |
    sed 's/^"target_directory":"//; s/"$//'
)"
target="${target:-$root/target}"
venv="$target/wheel-venv"
# The wheel's programs are built in a target directory of their own:
# maturin builds the client package alone, whose dependencies' features
# then differ from a workspace build's, so in the shared directory each
# build would replace the other's binaries under a running test or
# daemon. Here they never touch target/debug or target/release.
export CARGO_TARGET_DIR="$target/wheel-build"
if ! "$venv/bin/maturin" --version >/dev/null 2>&1; then
  echo "scripts/build-wheel.sh: installing maturin into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'maturin>=1.5,<2'
fi

# The daemon: built as cargo builds it for tests and installs (the same
# artifact, nothing rebuilt twice), then copied, stripped, into the
# wheel's data (pyproject.toml's `data`), which installs it beside the
# client. maturin builds the client itself.
daemon="$(
  cargo build "${profile[@]}" --message-format=json-render-diagnostics \
    -p shipgate-daemon --bin shipgate-daemon |
    grep -o '"executable":"[^"]*/shipgate-daemon"' |
    sed 's/^"executable":"//; s/"$//' |
    tail -n 1
)"
if [ -z "$daemon" ] || [ ! -x "$daemon" ]; then
  echo "scripts/build-wheel.sh: cargo did not report where it built shipgate-daemon" >&2
  exit 1
fi
data="$root/target/wheel-data/scripts"
rm -rf "$root/target/wheel-data"
mkdir -p "$data"
cp "$daemon" "$data/shipgate-daemon"
if command -v strip >/dev/null 2>&1; then
  strip "$data/shipgate-daemon" 2>/dev/null || true
fi

mkdir -p "$out"
# Only this build's wheel is reported: an older one in DIR is left alone.
stamp="$(mktemp)"
trap 'rm -f "$stamp"' EXIT
echo "scripts/build-wheel.sh: building the wheel (${profile[*]}); cargo's progress follows" >&2
"$venv/bin/maturin" build "${profile[@]}" --strip --out "$out" >&2
wheel="$(find "$out" -maxdepth 1 -name 'shipgate_agents-*.whl' -newer "$stamp" | sort | tail -n 1)"
if [ -z "$wheel" ]; then
  echo "scripts/build-wheel.sh: maturin reported success but wrote no wheel to $out" >&2
  exit 1
fi
# A wheel without its daemon would install a client that cannot start one.
if ! python3 -c 'import sys, zipfile; names = zipfile.ZipFile(sys.argv[1]).namelist(); sys.exit(not any(n.endswith(".data/scripts/shipgate-daemon") for n in names) or not any(n.endswith(".data/scripts/shipgate-client") for n in names))' "$wheel"; then
  echo "scripts/build-wheel.sh: $wheel lacks shipgate-client or shipgate-daemon" >&2
  exit 1
fi
echo "$wheel"
