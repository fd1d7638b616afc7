#!/usr/bin/env bash
# The README's main command: installs dependencies, builds, runs the interconnect suite and
# leaves the result file (and its report, when the report command exists) under results/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset default
cmake --build --preset default
out="results/gpubench-interconnect-$(hostname)-$(date -u +%Y%m%dT%H%M%SZ).json"
build/gpubench run --suite interconnect --out "$out" "$@"
