#!/usr/bin/env bash
# The release gpubench links none of the CPU stand-in: no symbol of tests/standin's code
# (namespace gpubench::tests::standin, the stand-in's own C entry points) and none of the
# stand-in NCCL's. The same look finds them in standin_gpubench, so the check can fail.
#   release_symbols_test.sh GPUBENCH STANDIN_GPUBENCH STANDIN_NCCL_SO
set -euo pipefail
gpubench=$1
standin=$2
nccl_so=$3
command -v nm >/dev/null || { echo "SKIP: no nm in PATH"; exit 77; }
pattern='gpubench::tests::standin|gpubench_standin_|standin-nccl'
look() { { nm -C "$1"; nm -C -D "$1" 2>/dev/null; strings "$1"; } | grep -E "$pattern" || true; }
found=$(look "$standin" | head -3)
[[ -n $found ]] || { echo "FAIL: the look finds no stand-in symbol in $standin"; exit 1; }
found=$(look "$nccl_so" | head -3)
[[ -n $found ]] || { echo "FAIL: the look finds nothing of the stand-in NCCL in $nccl_so"; exit 1; }
found=$(look "$gpubench" | head -5)
if [[ -n $found ]]; then
  echo "$found"
  echo "FAIL: $gpubench contains stand-in code"
  exit 1
fi
echo "ok: $gpubench has no stand-in symbol"
