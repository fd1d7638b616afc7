#!/usr/bin/env bash
# scripts/gpu-validate-pairs.jq reads the right nvbandwidth cell for every gpubench case, on
# made-up numbers where every cell differs (a wrong row or column gives a wrong value): local
# NUMA rows only; read copies the other way round; the split-warp SM copy's both ways; v0.6-on bidirectional matrices of three
# stacked tables and v0.5's single one. Usage: gpu_validate_pairs_test.sh SOURCE_DIR
set -euo pipefail
src=$1
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
filter="$src/scripts/gpu-validate-pairs.jq"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# gpubench: two GPUs; GPU 0's nearest node is 0.
cat >"$work/gpu.json" <<'JSON'
{"results": [
 {"benchmark": "gpu.h2d", "status": "ok", "context": {"numa_local": true},
  "params": {"gpu": 0, "memory": "pinned", "engine": "ce", "numa": 0},
  "points": [{"stats": {"median": 10}, "extra": {}}]},
 {"benchmark": "gpu.h2d", "status": "ok", "context": {"numa_local": false},
  "params": {"gpu": 0, "memory": "pinned", "engine": "ce", "numa": 1},
  "points": [{"stats": {"median": 7}, "extra": {}}]},
 {"benchmark": "gpu.d2h", "status": "ok", "context": {"numa_local": true},
  "params": {"gpu": 1, "memory": "pinned", "engine": "sm", "numa": 1},
  "points": [{"stats": {"median": 11}, "extra": {}}]},
 {"benchmark": "gpu.bidir", "status": "ok", "context": {"numa_local": true},
  "params": {"gpu": 0, "memory": "pinned", "engine": "ce", "numa": 0},
  "points": [{"stats": {"median": 20}, "extra": {"h2d_gbps": 9, "d2h_gbps": 8}}]},
 {"benchmark": "gpu.bidir", "status": "ok", "context": {"numa_local": true},
  "params": {"gpu": 1, "memory": "pinned", "engine": "sm", "numa": 1},
  "points": [{"stats": {"median": 30}, "extra": {}}]},
 {"benchmark": "gpu.p2p.bandwidth", "status": "ok",
  "params": {"src": 0, "dst": 1, "engine": "ce", "op": "write", "direction": "uni", "access": "p2p"},
  "points": [{"stats": {"median": 100}, "extra": {}}]},
 {"benchmark": "gpu.p2p.bandwidth", "status": "ok",
  "params": {"src": 0, "dst": 1, "engine": "ce", "op": "read", "direction": "uni", "access": "p2p"},
  "points": [{"stats": {"median": 101}, "extra": {}}]},
 {"benchmark": "gpu.p2p.bandwidth", "status": "ok",
  "params": {"src": 0, "dst": 1, "engine": "ce", "op": "read", "direction": "bidir", "access": "p2p"},
  "points": [{"stats": {"median": 200}, "extra": {"forward_gbps": 102, "reverse_gbps": 98}}]},
 {"benchmark": "gpu.p2p.bandwidth", "status": "ok",
  "params": {"src": 1, "dst": 0, "engine": "sm", "op": "write", "direction": "bidir", "access": "p2p"},
  "points": [{"stats": {"median": 200}, "extra": {"forward_gbps": 103, "reverse_gbps": 97}}]},
 {"benchmark": "gpu.p2p.bandwidth", "status": "ok",
  "params": {"src": 0, "dst": 1, "engine": "ce", "op": "write", "direction": "uni", "access": "staged"},
  "points": [{"stats": {"median": 5}, "extra": {}}]}
]}
JSON

# nvbandwidth -j, v0.8 layout. Cell values encode table, row and column: "T.RC" (table 1 or 2
# of a stacked matrix, else 0).
cat >"$work/nvb08.json" <<'JSON'
{"nvbandwidth": {"version": "v0.8", "testcases": [
 {"name": "host_to_device_memcpy_ce", "bandwidth_matrix": [["50.0", "50.1"]]},
 {"name": "device_to_host_memcpy_sm", "bandwidth_matrix": [["51.0", "51.1"]]},
 {"name": "host_to_device_bidirectional_memcpy_ce", "bandwidth_matrix": [["52.0", "52.1"]]},
 {"name": "device_to_host_bidirectional_memcpy_ce", "bandwidth_matrix": [["53.0", "53.1"]]},
 {"name": "host_to_device_bidirectional_memcpy_sm", "bandwidth_matrix": [["54.0", "54.1"]]},
 {"name": "device_to_device_memcpy_write_ce", "bandwidth_matrix": [["N/A", "0.01"], ["0.10", "N/A"]]},
 {"name": "device_to_device_memcpy_read_ce", "bandwidth_matrix": [["N/A", "0.01"], ["0.10", "N/A"]]},
 {"name": "device_to_device_bidirectional_memcpy_read_ce", "bandwidth_matrix": [
   ["N/A", "1.01"], ["1.10", "N/A"], ["N/A", "2.01"], ["2.10", "N/A"], ["N/A", "3.01"], ["3.10", "N/A"]]},
 {"name": "device_to_device_bidirectional_memcpy_write_sm", "bandwidth_matrix": [
   ["N/A", "1.01"], ["1.10", "N/A"], ["N/A", "2.01"], ["2.10", "N/A"], ["N/A", "3.01"], ["3.10", "N/A"]]}
]}}
JSON
# v0.5: one table per bidirectional testcase, the measured direction.
jq '(.nvbandwidth.testcases[] | select(.name | test("bidirectional_memcpy_(read|write)"))
     | .bandwidth_matrix) |= .[0:2]' "$work/nvb08.json" >"$work/nvb05.json"

pairs() { jq -r --argjson nvb "$(cat "$1")" -f "$filter" "$work/gpu.json"; }

fail=0
expect() {  # file, case name, reference
  local got
  got=$(pairs "$1" | awk -F'\t' -v w="$2" '$1 == w {print $3}')
  if [[ $got != "$3" ]]; then
    echo "FAIL $(basename "$1"): '$2' reference '$got', expected '$3'"
    fail=1
  fi
}
for f in "$work/nvb08.json" "$work/nvb05.json"; do
  expect "$f" "h2d gpu0 ce numa0" 50
  expect "$f" "d2h gpu1 sm numa1" 51.1
  expect "$f" "bidir h2d gpu0 numa0" 52
  expect "$f" "bidir d2h gpu0 numa0" 53
  expect "$f" "bidir sm both ways gpu1 numa1" 108.2  # nvbandwidth prints half of both ways
  expect "$f" "p2p 0->1 write ce" 0.01  # row = the writer
  expect "$f" "p2p 0->1 read ce" 0.1    # row = the reader (the destination)
  if pairs "$f" | grep -q "numa1"$'\t'"7"; then
    echo "FAIL: a remote-NUMA row was compared"
    fail=1
  fi
  if pairs "$f" | grep -q "staged\|^p2p 0->1 write ce"$'\t'"5"; then
    echo "FAIL: a staged case was compared"
    fail=1
  fi
done
# Stacked tables: the second holds [r][c] = r -> c, gpubench's forward direction.
expect "$work/nvb08.json" "p2p bidir 0->1 read ce" 2.01
expect "$work/nvb08.json" "p2p bidir 1->0 write sm" 2.1
# One table: read [dst][src], write [src][dst].
expect "$work/nvb05.json" "p2p bidir 0->1 read ce" 1.1
expect "$work/nvb05.json" "p2p bidir 1->0 write sm" 1.1
# No nvbandwidth: every case listed without a reference.
none=$(jq -r --argjson nvb null -f "$filter" "$work/gpu.json" | awk -F'\t' '$3 != "" {n++} END {print n + 0}')
if [[ $none != 0 ]]; then
  echo "FAIL: references without nvbandwidth output"
  fail=1
fi
((fail == 0)) && echo "gpu-validate pairs: every reference from the right cell"
exit $fail
