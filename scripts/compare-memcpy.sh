#!/usr/bin/env bash
# Sets gpubench's memory.host.copy (threads=1) beside a plain timed memcpy loop
# (benchmarks/micro/memcpy_reference.cpp) on the same sizes, and prints both and their ratio.
# The harness should cost nothing measurable: the ratio stays within a few percent of 1.
#
# usage: scripts/compare-memcpy.sh [--build DIR] [--sizes MIN:MAX] [--rounds N] [--tolerance PCT] [--cpu N]
# The two programs alternate size by size (pinned to CPU N with --cpu); each size's value is
# the median over rounds of each run's median; the best sample is printed beside it. Exit 0 when the geometric mean of the ratios is
# within the tolerance (default 5 %), 1 when not, 2 on bad usage or a missing program.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
sizes=4K:64M
rounds=3
tolerance=5
cpu=
usage() { sed -n 's/^# usage: //p' "$0" >&2; exit 2; }
while (($#)); do
  case "$1" in
    --build) build=${2:?}; shift 2 ;;
    --sizes) sizes=${2:?}; shift 2 ;;
    --rounds) rounds=${2:?}; shift 2 ;;
    --tolerance) tolerance=${2:?}; shift 2 ;;
    --cpu) cpu=${2:?}; shift 2 ;;
    -h|--help) usage ;;
    *) echo "compare-memcpy: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "compare-memcpy: --rounds needs a positive integer" >&2; exit 2; }
[[ $tolerance =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "compare-memcpy: --tolerance needs a number" >&2; exit 2; }
command -v jq >/dev/null || { echo "compare-memcpy: needs jq (scripts/setup.sh --tests installs it)" >&2; exit 2; }

# "4K" -> 4096; the same binary suffixes gpubench accepts.
to_bytes() {
  local t=${1^^} n mult=1
  t=${t%B}; t=${t%I}
  case "$t" in
    *K) mult=1024; t=${t%K} ;;
    *M) mult=$((1024 * 1024)); t=${t%M} ;;
    *G) mult=$((1024 * 1024 * 1024)); t=${t%G} ;;
  esac
  [[ $t =~ ^[0-9]+$ ]] || { echo "compare-memcpy: bad size '$1' in --sizes" >&2; exit 2; }
  n=$((t * mult))
  echo "$n"
}
[[ $sizes == *:* ]] || { echo "compare-memcpy: --sizes wants MIN:MAX, e.g. 4K:64M" >&2; exit 2; }
min=$(to_bytes "${sizes%%:*}")
max=$(to_bytes "${sizes##*:}")

gpubench=$build/gpubench
reference=$build/benchmarks/micro/memcpy_reference
if [[ ! -x $gpubench || ! -x $reference ]]; then
  cmake --build "$build" --target gpubench memcpy_reference >/dev/null 2>&1 || {
    echo "compare-memcpy: cannot build $gpubench and $reference; configure $build with" \
      "-DGPUBENCH_BUILD_MICRO=ON (needs Google Benchmark, libbenchmark-dev)" >&2
    exit 2
  }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Alternate the two programs size by size, so a burst of load on a shared machine lands on
# both sides of one size rather than on one program's whole sweep.
pin=()
[[ -n $cpu ]] && pin=(taskset -c "$cpu")
for ((r = 1; r <= rounds; r++)); do
  echo "round $r/$rounds" >&2
  for ((size = min; size <= max; size *= 2)); do
    "${pin[@]}" "$gpubench" run --suite memory --filter '^memory\.host\.copy$' \
      --sizes "$size:$size" --out "$work/gpubench.json" --quiet >/dev/null
    jq -r '.results[] | select(.status == "ok" and .params.threads == 1) | .points[] |
           "g \(.bytes) \(.stats.median) \(.stats.max)"' "$work/gpubench.json" >>"$work/all"
    "${pin[@]}" "$reference" "$size" "$size" | awk '{print "m", $1, $2, $3}' >>"$work/all"
  done
done

echo "memory.host.copy (threads=1) against a plain memcpy loop, GB/s (1e9): median over"
echo "rounds of each run's median, and the best sample (peak) of all rounds"
# Joins the rounds by size, takes each side's median over rounds, prints the ratio and the
# geometric mean of the ratios; exits 1 when that mean is outside the tolerance.
awk -v tol="$tolerance" '
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  function human(b) {
    if (b >= 1073741824) return sprintf("%d GiB", b / 1073741824)
    if (b >= 1048576) return sprintf("%d MiB", b / 1048576)
    if (b >= 1024) return sprintf("%d KiB", b / 1024)
    return b " B"
  }
  { v[$1, $2] = v[$1, $2] " " $3; p[$1, $2] = $4 > p[$1, $2] ? $4 : p[$1, $2]; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
  END {
    printf "%10s  %10s  %10s  %7s    %10s  %10s  %7s\n", "", "median", "", "", "peak", "", ""
    printf "%10s  %10s  %10s  %7s    %10s  %10s  %7s\n", "size", "gpubench", "loop", "ratio",
           "gpubench", "loop", "ratio"
    for (i = 1; i <= n; i++) {
      s = order[i]
      if (!((("g", s) in v) && (("m", s) in v))) continue
      g = median(v["g", s]); m = median(v["m", s])
      printf "%10s  %10.2f  %10.2f  %7.3f    %10.2f  %10.2f  %7.3f\n", human(s), g, m, g / m,
             p["g", s], p["m", s], p["g", s] / p["m", s]
      logsum += log(g / m); count++
    }
    if (count == 0) { print "no sizes measured by both programs" > "/dev/stderr"; exit 2 }
    gm = exp(logsum / count)
    within = (gm >= 1 - tol / 100 && gm <= 1 + tol / 100)
    printf "geometric mean ratio gpubench/loop over %d sizes: %.3f (%+.1f %%), %s the %s %% tolerance\n",
           count, gm, (gm - 1) * 100, within ? "within" : "OUTSIDE", tol
    exit within ? 0 : 1
  }' <(sort -k2,2n "$work/all")
