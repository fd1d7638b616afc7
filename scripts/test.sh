#!/usr/bin/env bash
# The README's test command: installs what the tests need, builds everything with warnings as
# errors, file by file (build/, the build scripts/run.sh then reuses), runs every test (CTest),
# then the unit tests and the gpu family on the CPU stand-in of the CUDA runtime
# (tests/standin) again under AddressSanitizer + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
cmake --preset asan
cmake --build --preset asan
ctest --preset asan
