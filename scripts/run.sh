#!/usr/bin/env bash
# The README's main command: installs what the build and the run need, builds the program
# (build/gpubench, nothing else: the tests are scripts/test.sh's), runs the interconnect suite
# and leaves the result file and its HTML report under results/. Arguments go to `gpubench run`
# (--quick, --filter REGEX, --sizes ...).
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
