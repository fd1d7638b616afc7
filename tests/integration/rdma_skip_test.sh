#!/usr/bin/env bash
# On a host without an RDMA device, net.rdma.* are recorded as skipped with the reason, the
# run still succeeds, and the system block carries rdma_devices. Skipped (77) on a host that
# has an RDMA device: there the benchmarks run instead.
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -d /sys/class/infiniband ] && [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]; then
  echo "SKIP: this host has RDMA devices; the no-device path cannot be checked here"
  exit 77
fi

"$bin" run --suite network --filter '^net\.rdma\.' --quiet --out "$tmp/run.json"
"$bin" list --suite network > "$tmp/list.txt"

python3 - "$tmp/run.json" "$tmp/list.txt" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
listing = open(sys.argv[2]).read()
assert run["run"]["status"] == "complete", run["run"]["status"]
cases = {r["benchmark"]: r for r in run["results"]}
for bench in ("net.rdma.latency", "net.rdma.bandwidth"):
    assert bench in cases, f"{bench} missing from the result file"
    case = cases[bench]
    assert case["status"] == "skipped", f"{bench}: {case['status']}"
    reason = case.get("reason", "")
    assert reason.startswith("no RDMA device") or reason.startswith("built without RDMA verbs"), reason
    assert bench in listing and reason.split(":")[0] in listing, "list does not show the reason"
assert run["system"]["rdma_devices"] == [], run["system"]["rdma_devices"]
print("net.rdma.* skipped:", cases["net.rdma.latency"]["reason"])
PY
