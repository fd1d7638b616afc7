#!/usr/bin/env bash
# One measurement per node under a launcher: `mpirun -np 4 gpubench run --suite memory` on one
# machine measures each memory case once (rank 0, the node's leader), says so, and records who
# measured; with a collective after the node-local cases, the ranks that skipped them wait for
# the leader and every rank takes part in allreduce.
set -euo pipefail
gpubench=$1
command -v mpirun >/dev/null || { echo "SKIP: no mpirun in PATH"; exit 77; }
"$gpubench" list --suite collectives | grep -q "available" || {
  echo "SKIP: MPI collectives unavailable in this build (no launch to share a node)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=()
[[ $(id -u) -eq 0 ]] && root=(--allow-run-as-root)
launch() {
  timeout 240 mpirun "${root[@]}" -np 4 --oversubscribe --mca pml ob1 --mca btl self,tcp \
    --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo --mca mpi_yield_when_idle 1 "$@"
}

# Alone, then under the launcher: the same cases, each measured once.
"$gpubench" run --suite memory --quick --quiet --out "$tmp/alone.json" >/dev/null
launch "$gpubench" run --suite memory --quick --out "$tmp/np4.json" >"$tmp/np4.txt" 2>&1 || {
  cat "$tmp/np4.txt"; echo "FAIL: mpirun -np 4 --suite memory"; exit 1; }
grep -q "# 4 ranks on node .*: rank 0 measures the node-local benchmarks once" "$tmp/np4.txt" || {
  cat "$tmp/np4.txt"; echo "FAIL: the run did not say that one rank measures the node"; exit 1; }
python3 - "$tmp/alone.json" "$tmp/np4.json" <<'PY'
import json, sys
alone, np4 = (json.load(open(p)) for p in sys.argv[1:3])
assert np4["run"]["status"] == "complete", np4["run"]["status"]
assert len(np4["results"]) == len(alone["results"]) > 0, (len(np4["results"]), len(alone["results"]))
for c in np4["results"]:
    assert c["status"] == "ok", (c["benchmark"], c["status"], c.get("reason"))
    by = c["context"].get("measured_by")
    assert by and by["rank"] == 0 and by["ranks_on_node"] == 4, (c["benchmark"], by)
print(f"ok: {len(np4['results'])} memory case(s), each measured once, by rank 0 of 4")
PY

# Node-local cases, then allreduce: ranks 1-3 skip the memory cases, wait for rank 0 and join
# the collective (which would otherwise start its deadline while rank 0 still measures: the
# memory cases take about 10 s, longer than the 8 s --coll-timeout).
launch "$gpubench" run --suite interconnect --filter '^(memory\.host\.copy|coll\.allreduce)$' \
  --backend mpi --quick --coll-timeout 8 --out "$tmp/mixed.json" \
  >"$tmp/mixed.txt" 2>&1 || { cat "$tmp/mixed.txt"; echo "FAIL: memory then allreduce"; exit 1; }
python3 - "$tmp/mixed.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mem = [c for c in d["results"] if c["kind"]["path"] == "host_memory"]
coll = [c for c in d["results"] if c["kind"]["path"] == "collective" and c["status"] == "ok"]
assert mem and all(c["status"] == "ok" and c["context"]["measured_by"]["rank"] == 0 for c in mem)
assert coll, [(c["benchmark"], c["status"], c.get("reason")) for c in d["results"]]
print(f"ok: {len(mem)} memory case(s) by rank 0, then {len(coll)} allreduce case(s) on 4 ranks")
PY
