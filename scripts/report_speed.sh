#!/usr/bin/env bash
# How long `gpubench report` takes for 20 result files into all four formats (the target is a
# few seconds). A benchmark script, not a test: it prints the time and the sizes written.
# Usage: scripts/report_speed.sh [GPUBENCH] [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
gpubench=${1:-build/gpubench}
count=${2:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$gpubench" run --suite memory --quick --quiet --out "$work/memory.json" >/dev/null
sources=("$work/memory.json" tests/golden/reports/*.json)
# Copies of the real run and the fixtures, each with its own run id (a report refuses the same
# run twice) and started time, as 20 runs of a fleet would be.
python3 - "$work" "$count" "${sources[@]}" <<'PY'
import json, sys
work, count, sources = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
for i in range(count):
    doc = json.load(open(sources[i % len(sources)]))
    doc["run"]["id"] += f"-copy{i}"
    doc["run"]["started"] = f"2026-11-21T{i // 60:02d}:{i % 60:02d}:00Z"
    json.dump(doc, open(f"{work}/run{i:02d}.json", "w"))
PY
files=("$work"/run*.json)
start=$(date +%s.%N)
"$gpubench" report "${files[@]}" --html "$work/r.html" --pdf "$work/r.pdf" --md "$work/r.md" \
  --csv "$work/r.csv" 2>/dev/null
end=$(date +%s.%N)
printf 'report of %d result files (%s of JSON) into HTML %s, PDF %s, Markdown %s, CSV %s: %.2f s\n' \
  "${#files[@]}" "$(du -ch "${files[@]}" | tail -1 | cut -f1)" \
  "$(du -h "$work/r.html" | cut -f1)" "$(du -h "$work/r.pdf" | cut -f1)" \
  "$(du -h "$work/r.md" | cut -f1)" "$(du -h "$work/r.csv" | cut -f1)" \
  "$(python3 -c "print($end - $start)")"
