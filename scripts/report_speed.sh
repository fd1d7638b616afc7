#!/usr/bin/env bash
# How long `gpubench report` takes for COUNT runs of the interconnect suite (default 20), HTML
# and PDF in one command: the target is 2 s, what a design review of many runs and a CI job
# rendering one report per commit can wait for. Also prints the time for all four formats and
# the page count of the 1-run, 3-run and COUNT-run PDFs. A benchmark script, not a test: it
# exits 1 when the target is missed.
# Usage: scripts/report_speed.sh [GPUBENCH] [COUNT]
#   RUN=results/RUN.json reuses a result file of the interconnect suite instead of measuring
#   one (`gpubench run --suite interconnect`, about 2 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
gpubench=${1:-build/gpubench}
count=${2:-20}
target=2.0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run=${RUN:-}
if [[ -z $run ]]; then
  run="$work/interconnect.json"
  "$gpubench" run --suite interconnect --quiet --out "$run" >/dev/null || [[ -s $run ]]
fi
# Copies of the run, each with its own run id (a report refuses the same run twice) and start
# time, as COUNT nightly runs of one machine would be.
python3 - "$work" "$count" "$run" <<'PY'
import json, sys
work, count, source = sys.argv[1], int(sys.argv[2]), sys.argv[3]
doc = json.load(open(source))
for i in range(count):
    doc["run"]["id"] = f"speed-{i}"
    doc["run"]["started"] = f"2026-11-{1 + i // 24:02d}T{i % 24:02d}:00:00Z"
    json.dump(doc, open(f"{work}/run{i:02d}.json", "w"))
PY
files=("$work"/run*.json)

seconds() {  # seconds COMMAND...: wall time of one command, its output dropped
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}
pages() { pdfinfo "$1" 2>/dev/null | awk '/^Pages:/ {print $2}'; }

"$gpubench" report "${files[0]}" --pdf "$work/one.pdf" 2>/dev/null
"$gpubench" report "${files[@]:0:3}" --pdf "$work/three.pdf" 2>/dev/null
both=$(seconds "$gpubench" report "${files[@]}" --html "$work/r.html" --pdf "$work/r.pdf")
all=$(seconds "$gpubench" report "${files[@]}" --html "$work/a.html" --pdf "$work/a.pdf" \
  --md "$work/a.md" --csv "$work/a.csv")
printf 'report of %d runs (%s of JSON): HTML + PDF %s s (target %s s), all four formats %s s\n' \
  "$count" "$(du -ch "${files[@]}" | tail -1 | cut -f1)" "$both" "$target" "$all"
printf 'sizes: HTML %s, PDF %s; PDF pages: 1 run %s, 3 runs %s, %d runs %s\n' \
  "$(du -h "$work/r.html" | cut -f1)" "$(du -h "$work/r.pdf" | cut -f1)" \
  "$(pages "$work/one.pdf")" "$(pages "$work/three.pdf")" "$count" "$(pages "$work/r.pdf")"
if python3 -c "import sys; sys.exit(0 if $both <= $target else 1)"; then
  echo "target met"
else
  echo "report of $count runs misses its target: $both s > $target s" >&2
  exit 1
fi
