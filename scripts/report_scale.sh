#!/usr/bin/env bash
# Does `gpubench report` (and `compare`) grow linearly with the size of one result file? Makes
# result files of the sizes given (MB; default 25 50 100 200) from a fixture, reports each to
# HTML and prints seconds, peak memory and memory per byte of input. Linear: doubling the file
# doubles the time. Targets (issue 18): 200 MB in under 30 s, peak memory under 3x the file.
# A benchmark script, not a test. Usage: scripts/report_scale.sh [GPUBENCH] [MB...]
# SHAPE=cases (default: many cases of 8 points x 50 samples) or SHAPE=samples (few cases,
# 20000 samples a point).
set -euo pipefail
cd "$(dirname "$0")/.."
gpubench=${1:-build/gpubench}
shift || true
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(25 50 100 200)
shape=${SHAPE:-cases}
[[ -x /usr/bin/time ]] || { echo "needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
missed=0

for mb in "${sizes[@]}"; do
  file="$work/run-$mb.json"
  python3 - tests/golden/reports/network.json "$file" "$mb" "$shape" <<'PY'
import json, random, sys
src, out, mb, shape = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
doc = json.load(open(src))
base = next(c for c in doc["results"] if c["status"] == "ok")
per_point = 20000 if shape == "samples" else 50
rng = random.Random(1)
results, size, i = [], 0, 0
while size < mb * 1e6:
    c = json.loads(json.dumps(base))
    c["params"]["peer"] = f"198.18.{i // 250}.{i % 250}:18515"
    points = []
    for k in range(8):
        p = json.loads(json.dumps(base["points"][0]))
        p["bytes"] = 64 << k
        p["samples"] = [round(rng.uniform(1, 100), 6) for _ in range(per_point)]
        points.append(p)
    c["points"] = points
    size += len(json.dumps(c))
    results.append(c)
    i += 1
doc["results"] = results
json.dump(doc, open(out, "w"))
PY
  bytes=$(stat -c %s "$file")
  for cmd in report compare; do
    if [[ $cmd == report ]]; then args=(report "$file" --html "$work/r.html"); else args=(compare "$file" "$file" --format json --out "$work/c.json"); fi
    /usr/bin/time -v "$gpubench" "${args[@]}" >/dev/null 2>"$work/time" || {
      echo "$cmd of $mb MB failed: $(grep -v '^\s' "$work/time" | head -3)" >&2
      continue
    }
    secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$work/time")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
    ratio=$(echo "$rss * 1024 / $bytes" | bc -l)
    printf '%-7s %6.1f MB (%s): %7.2f s, peak RSS %7.1f MB = %.2fx the file\n' "$cmd" \
      "$(echo "$bytes / 1000000" | bc -l)" "$shape" "$secs" "$(echo "$rss / 1000" | bc -l)" "$ratio"
    # The targets hold for report at 200 MB; smaller files pay the fixed 20 MB of the program.
    if [[ $cmd == report ]] && (($(echo "$bytes >= 200000000" | bc))) &&
      (($(echo "$secs > 30 || $ratio > 3" | bc))); then
      echo "report of $mb MB misses its target (under 30 s, under 3x the file)" >&2
      missed=1
    fi
  done
  rm -f "$file"
done
exit "$missed"
