#!/usr/bin/env bash
# The gpu suite end to end: on a host with a CUDA device every case runs; without one (or
# without CUDA in the build) every case is skipped with its reason and the run succeeds.
# Also checks that `topo --json` carries the GPU keys. Usage: gpu_suite_test.sh GPUBENCH
set -euo pipefail
gpubench=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$gpubench" run --suite gpu --quick --sizes 64K:128K --out "$out/run.json" >"$out/log" 2>&1 || {
  rc=$?
  cat "$out/log"
  echo "gpubench run --suite gpu exited with $rc" >&2
  exit 1
}
"$gpubench" topo --json >"$out/topo.json"

python3 - "$out/run.json" "$out/topo.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
topo = json.load(open(sys.argv[2]))
ids = {"gpu.h2d", "gpu.d2h", "gpu.bidir", "gpu.p2p.bandwidth", "gpu.p2p.latency",
       "gpu.host.latency"}
seen = {r["benchmark"] for r in run["results"]}
assert ids <= seen, f"missing benchmarks: {ids - seen}"
for r in run["results"]:
    if r["benchmark"] not in ids:
        continue
    if r["status"] == "skipped":
        assert r.get("reason"), f"{r['benchmark']} skipped without a reason"
        assert "not implemented" not in r["reason"], r["reason"]
    else:
        assert r["status"] == "ok", f"{r['benchmark']} {r['params']}: {r.get('reason')}"
        assert r["points"], f"{r['benchmark']} ok without points"
for system in (run["system"], topo):
    assert isinstance(system.get("gpus"), list), "system.gpus is not a list"
    assert isinstance(system.get("gpu_pairs"), list), "system.gpu_pairs is not a list"
    assert isinstance(system.get("software"), dict), "system.software is not an object"
print("gpu suite:", ", ".join(f"{r['benchmark']} {r['status']}" for r in run["results"]))
PY
