#!/usr/bin/env bash
# On a host without an RDMA device, net.rdma.* are listed and recorded as skipped with the
# reason, the run still succeeds with a schema-valid file, and the system block carries
# rdma_devices. Skipped (77) on a host that has an RDMA device: there the benchmarks run.
set -eu
source "$(dirname "$0")/lib.sh"

if [[ -d /sys/class/infiniband && -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]]; then
  echo "SKIP: this host has RDMA devices; the no-device path cannot be checked here"
  exit 77
fi

expect_exit 0 "net.rdma.* run without a device" -- \
  "$GPUBENCH" run --suite network --filter '^net\.rdma\.' --quiet --out "$TEST_TMP/run.json"
validate "$TEST_TMP/run.json"
expect_exit 0 "list" -- "$GPUBENCH" list --suite network
expect_contains "$out" "net.rdma.latency" "list shows net.rdma.latency"

python3 - "$TEST_TMP/run.json" "$out" <<'PY' || fail "result file content (see above)"
import json, sys
run = json.load(open(sys.argv[1]))
listing = sys.argv[2]
assert run["run"]["status"] == "complete", run["run"]["status"]
cases = {r["benchmark"]: r for r in run["results"]}
for bench in ("net.rdma.latency", "net.rdma.bandwidth"):
    assert bench in cases, f"{bench} missing from the result file"
    case = cases[bench]
    assert case["status"] == "skipped", f"{bench}: {case['status']}"
    reason = case.get("reason", "")
    assert reason.startswith(("no RDMA device", "built without RDMA verbs")), reason
    assert reason.split(":")[0] in listing, "list does not show the reason"
assert run["system"]["rdma_devices"] == [], run["system"]["rdma_devices"]
print("ok: net.rdma.* skipped:", cases["net.rdma.latency"]["reason"])
PY
expect_exit 2 "a bad --rdma-op is a usage error" -- \
  "$GPUBENCH" run --suite network --filter '^net\.rdma\.' --quiet --rdma-op atomic \
  --out "$TEST_TMP/bad.json"
expect_contains "$err" "--rdma-op" "the error names the option"

# --rdma-cm on: the same clean skip (the requirement is checked before any rdma_cm call).
expect_exit 0 "net.rdma.* --rdma-cm on without a device" -- \
  "$GPUBENCH" run --suite network --filter '^net\.rdma\.' --quiet --rdma-cm on \
  --out "$TEST_TMP/cm.json"
validate "$TEST_TMP/cm.json"
python3 - "$TEST_TMP/cm.json" <<'PY' || fail "--rdma-cm on result file content (see above)"
import json, sys
run = json.load(open(sys.argv[1]))
assert run["results"], "no cases"
for case in run["results"]:
    assert case["status"] == "skipped", case["status"]
    assert case.get("reason", "").startswith(("no RDMA device", "built without RDMA verbs")), case
print("ok: --rdma-cm on cases skipped:", run["results"][0]["reason"])
PY
expect_exit 2 "a bad --rdma-cm is a usage error" -- \
  "$GPUBENCH" run --suite network --filter '^net\.rdma\.' --quiet --rdma-cm bogus \
  --out "$TEST_TMP/bad-cm.json"
expect_contains "$err" "--rdma-cm" "the error names the option"
for opt in "--rdma-completion interrupt" "--rdma-tclass 256" "--rdma-sl 16" \
  "--pkey-index 65536" "--peer-pkey-index x" "--rdma-relaxed-ordering maybe"; do
  # shellcheck disable=SC2086  # the option and its value are two words
  expect_exit 2 "a bad ${opt% *} is a usage error" -- \
    "$GPUBENCH" run --suite network --filter '^net\.rdma\.' --quiet $opt \
    --out "$TEST_TMP/bad-option.json"
  expect_contains "$err" "${opt% *}" "the error names the option"
done
finish
