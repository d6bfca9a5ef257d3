#!/usr/bin/env bash
# The test suite: `cargo test --workspace`, with the stock-Python-client
# end-to-end test (tests/stock_python_client.rs) switched on. It needs a
# Python with grpcio, grpcio-reflection, grpcio-health-checking and
# grpcio-status: made here once as a venv in cargo's target directory
# (pip reaches PyPI the first time), and named to the test by
# SHIPGATE_TEST_PYTHON. Extra arguments go to `cargo test`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# cargo's target directory, CARGO_TARGET_DIR included.
target="$(
  cargo metadata --format-version 1 --no-deps |
    grep -o '"target_directory":"[^"]*"' |
    sed 's/^"target_directory":"//; s/"$//'
)"
venv="${target:-$root/target}/test-venv"
packages=(grpcio grpcio-reflection grpcio-health-checking grpcio-status)
if ! "$venv/bin/python" -c 'import grpc, grpc_reflection, grpc_health, grpc_status' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${packages[@]}"
fi

SHIPGATE_TEST_PYTHON="$venv/bin/python" cargo test --workspace "$@"
