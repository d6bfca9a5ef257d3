#!/usr/bin/env bash
# The test suite: `cargo test --workspace`, with the tests that need Python
# packages switched on: the stock-Python-client end-to-end test
# (tests/stock_python_client.rs: grpcio, grpcio-reflection,
# grpcio-health-checking, grpcio-status), the GitHub Action's runner
# emulator (tests/github_action.rs: pyyaml), the pre-commit hook
# (tests/pre_commit_hook.rs: pre-commit) and the inventory's CycloneDX
# schema check (tests/inventory.rs: cyclonedx-python-lib), the S3-compatible
# server of the remote cache's fleet test (tests/remote_cache.rs: moto's
# server; its Redis half uses the distribution's redis-server, which
# .ci/run installs); the wheel's
# tests need python3's venv and install maturin themselves
# (scripts/build-wheel.sh). The packages go once into a venv in cargo's
# target directory (pip reaches PyPI the first time, and again when a
# package is added here), named to the tests by SHIPGATE_TEST_PYTHON.
# Extra arguments go to `cargo test`.
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
packages=(grpcio grpcio-reflection grpcio-health-checking grpcio-status pyyaml pre-commit 'cyclonedx-python-lib[json-validation]' 'moto[server]')
if ! "$venv/bin/python" -c 'import grpc, grpc_reflection, grpc_health, grpc_status, yaml, pre_commit, cyclonedx, jsonschema, moto.server' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${packages[@]}"
fi

SHIPGATE_TEST_PYTHON="$venv/bin/python" cargo test --workspace "$@"
