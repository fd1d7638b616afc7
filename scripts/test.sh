#!/usr/bin/env bash
# The README's test command: installs dependencies, builds with warnings as errors, runs every
# test (CTest), then the unit tests and the gpu family on the CPU stand-in of the CUDA runtime
# (tests/standin) again under AddressSanitizer + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
cmake --preset asan
cmake --build --preset asan
ctest --preset asan
