#!/usr/bin/env bash
# The README's main command: installs dependencies, builds, runs the interconnect suite and
# leaves the result file and its HTML report under results/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset default
cmake --build --preset default
out="results/gpubench-interconnect-$(hostname)-$(date -u +%Y%m%dT%H%M%SZ).json"
rc=0
build/gpubench run --suite interconnect --out "$out" "$@" || rc=$?
# The HTML report goes next to the result file, also after a failed case (it shows why).
[[ ! -s "$out" ]] || build/gpubench report "$out" --html "${out%.json}.html"
exit "$rc"
