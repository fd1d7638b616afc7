#!/usr/bin/env bash
# Validates gpubench on a GPU host against the field's own tools: runs the gpu suite and the
# NCCL allreduce over all local GPUs and, when `nvbandwidth` and nccl-tests' `all_reduce_perf`
# are on PATH, the same cases with them, and prints gpubench / reference per case. Goal for
# bandwidth: ratio >= 0.95 (docs/gpu.md, "Validating on a GPU host").
#
# usage: scripts/gpu-validate.sh [--build DIR] [--out DIR] [--size MiB] [--goal R]
# Exit 0 when every compared case reaches the goal, 1 when one does not (or a run failed),
# 2 on bad usage or a missing program. Without a reference tool its cases are listed as
# "no reference" and do not count.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
out="gpu-validate-$(date +%Y%m%d-%H%M%S)"
size_mib=512  # nvbandwidth's default buffer
goal=0.95
usage() { sed -n 's/^# usage: //p' "$0" >&2; exit 2; }
while (($#)); do
  case "$1" in
    --build) build=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --size) size_mib=${2:?}; shift 2 ;;
    --goal) goal=${2:?}; shift 2 ;;
    -h|--help) usage ;;
    *) echo "gpu-validate: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ $size_mib =~ ^[1-9][0-9]*$ ]] || { echo "gpu-validate: --size needs MiB as a positive integer" >&2; exit 2; }
[[ $goal =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "gpu-validate: --goal needs a number" >&2; exit 2; }
command -v jq >/dev/null || { echo "gpu-validate: needs jq (scripts/setup.sh --tests installs it)" >&2; exit 2; }
gpubench="$build/gpubench"
[[ -x $gpubench ]] || { echo "gpu-validate: no $gpubench (build it first)" >&2; exit 2; }
command -v nvidia-smi >/dev/null || { echo "gpu-validate: no nvidia-smi: not a GPU host?" >&2; exit 2; }
mkdir -p "$out"
ngpus=$(nvidia-smi -L | grep -c '^GPU ')
echo "gpu-validate: $ngpus GPU(s), results in $out/"
[[ -n ${CUDA_LAUNCH_BLOCKING:-} && ${CUDA_LAUNCH_BLOCKING} != 0 ]] &&
  echo "gpu-validate: CUDA_LAUNCH_BLOCKING is set: the latched cases will be skipped" >&2

status=0
# The gpu suite at nvbandwidth's buffer size; the allreduce sweep as nccl-tests' below.
"$gpubench" run --suite gpu --sizes "${size_mib}M:${size_mib}M" --out "$out/gpu.json" --quiet || status=1
"$gpubench" run --suite collectives --filter coll.allreduce --backend nccl --sizes 1M:1G \
  --out "$out/nccl.json" --quiet || status=1

have_nvb=0; have_nt=0
if command -v nvbandwidth >/dev/null; then
  have_nvb=1
  nvbandwidth -b "$size_mib" -j >"$out/nvbandwidth.json" || status=1
fi
if command -v all_reduce_perf >/dev/null; then
  have_nt=1
  # -c 1 (its default, said here): nccl-tests checks each size, as gpubench does by default.
  all_reduce_perf -b 1M -e 1G -f 2 -g "$ngpus" -c 1 >"$out/all_reduce_perf.txt" || status=1
fi

# Both tools check the data: every gpubench point says it passed (a failed check fails its
# case, so the run's status already says so), and no nccl-tests row counts a wrong element
# (its #wrong columns, 9 and 13 of a data row).
unchecked=$(jq '[.results[] | select(.benchmark == "coll.allreduce" and .status == "ok") | .points[]
  | select(.extra.check != "passed")] | length' "$out/nccl.json" 2>/dev/null || echo "unknown (no result file)")
if [[ $unchecked != 0 ]]; then
  echo "gpu-validate: $unchecked gpubench allreduce point(s) without a passed data check" >&2
  status=1
fi
if ((have_nt)) && awk '$1 ~ /^[0-9]+$/ && NF >= 13 && ($9 != 0 || $13 != 0) { bad = 1 } END { exit !bad }' \
  "$out/all_reduce_perf.txt"; then
  echo "gpu-validate: all_reduce_perf found wrong elements (#wrong column)" >&2
  status=1
fi

# One line per comparable gpubench case: "what<TAB>gpubench GB/s<TAB>reference GB/s"; which
# cases and which matrix cells: scripts/gpu-validate-pairs.jq.
pairs=$(jq -r --argjson nvb "$(if ((have_nvb)); then cat "$out/nvbandwidth.json"; else echo null; fi)" \
  -f scripts/gpu-validate-pairs.jq "$out/gpu.json")

# nccl-tests: out-of-place busbw (column 8) per size; gpubench: extra.busbw per point. With one
# GPU busbw is 0 by definition (allreduce's factor 2(n-1)/n), so algbw (column 7) is compared.
bw=busbw; col=8
((ngpus == 1)) && { bw=algbw; col=7; }
if ((have_nt)); then
  nt=$(awk -v c="$col" '$1 ~ /^[0-9]+$/ && NF >= 8 {print $1 "\t" $c}' "$out/all_reduce_perf.txt")
else
  nt=""
fi
pairs+=$'\n'$(jq -r --arg nt "$nt" --arg bw "$bw" '
  ($nt | split("\n") | map(select(length > 0) | split("\t") | {(.[0]): (.[1] | tonumber)}) | add // {}) as $ref
  | .results[] | select(.status == "ok" and .benchmark == "coll.allreduce") | .points[]
  | select(.extra[$bw] != null)
  | ["nccl allreduce \($bw) \(.bytes) B", .extra[$bw], ($ref[(.bytes | tostring)] // null)] | @tsv' \
  "$out/nccl.json")

printf '%-40s %12s %12s %8s\n' case gpubench reference ratio
while IFS=$'\t' read -r what mine ref; do
  [[ -z $what ]] && continue
  if [[ -z $ref || $ref == null ]]; then
    printf '%-40s %12.2f %12s %8s\n' "$what" "$mine" "-" "no reference"
    continue
  fi
  ratio=$(awk -v a="$mine" -v b="$ref" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "nan" }')
  flag=""
  if awk -v r="$ratio" -v g="$goal" 'BEGIN { exit !(r == "nan" || r < g) }'; then
    flag="  < $goal"
    status=1
  fi
  printf '%-40s %12.2f %12.2f %8s%s\n' "$what" "$mine" "$ref" "$ratio" "$flag"
done <<<"$pairs"
((have_nvb)) || echo "gpu-validate: nvbandwidth not on PATH: GPU copies have no reference"
((have_nt)) || echo "gpu-validate: all_reduce_perf not on PATH: allreduce has no reference"
exit $status
