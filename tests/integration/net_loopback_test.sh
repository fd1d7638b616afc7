#!/usr/bin/env bash
# net.tcp.* on loopback (no --peer): the run starts its own server, every case completes,
# results are schema-valid and labelled loopback; bad network options are usage errors.
source "$(dirname "$0")/lib.sh"
set -e

file="$TEST_TMP/net.json"
expect_exit 0 "network suite on loopback" -- \
  "$GPUBENCH" run --suite network --filter 'net\.tcp' --quick --quiet --sizes 1K:64K \
  --streams 2 --out "$file"
expect_contains "$out" "net.tcp.latency" "summary names the latency benchmark"
validate "$file"
py=$(schema_python)
"$py" - "$file" <<'PY' && pass "loopback TCP results complete and labelled" || fail "loopback TCP results wrong"
import json, sys
d = json.load(open(sys.argv[1]))
tcp = [c for c in d["results"] if c["benchmark"].startswith("net.tcp.")]
assert len(tcp) == 1 + 2 * 3, [c["params"] for c in tcp]
for c in tcp:
    assert c["status"] == "ok", c.get("reason")
    assert c["params"]["peer"] == "loopback (no NIC crossed)", c["params"]
    assert c["context"]["peer"] == "loopback (no NIC crossed)"
    assert c["context"]["interface"] == "lo", c["context"]
    assert "peak" not in c, "loopback has no line rate"
    assert [p["bytes"] for p in c["points"]] == [1024 * 2**i for i in range(7)]
    for p in c["points"]:
        assert p["stats"]["median"] > 0
        assert p["extra"]["cpu_seconds_per_gb"] > 0, p["extra"]
        assert p["extra"]["cpu_seconds_per_message"] > 0
lat = next(c for c in tcp if c["benchmark"] == "net.tcp.latency")
assert lat["unit"] == "us" and lat["better"] == "lower"
for p in lat["points"]:
    assert len(p["samples"]) == p["stats"]["count"]
    assert ("p99_9" in p["stats"]) == (p["stats"]["count"] >= 1000), p["stats"]
    assert p["stats"]["min"] <= p["stats"]["median"] <= p["stats"]["p99"] <= p["stats"]["max"]
assert any("p99_9" in p["stats"] for p in lat["points"]), "no latency point reached 1000 samples"
durations = []
for c in tcp:
    if c["benchmark"] != "net.tcp.bandwidth":
        assert c["params"]["nodelay"] is True and c["context"]["nodelay"] is True, c["params"]
        continue
    assert c["params"]["nodelay"] is False and c["context"]["nodelay"] is False, c["params"]
    for p in c["points"]:
        e = p["extra"]
        durations.append(e["sample_seconds"])
        assert abs(e["bytes_per_sample"] - e["messages_per_sample"] * p["bytes"]) <= 1e-6 * e["bytes_per_sample"], e
        # Every stream is counted: the shares of an equal split bracket 1 (1 and 1 for one
        # stream). On loopback a busy host's scheduler may starve one stream's thread, so its
        # share may be anything down to 0.
        assert 0 <= e["stream_share_min"] <= 1 + 1e-9 and e["stream_share_max"] >= 1 - 1e-9, e
        if c["params"]["streams"] == 1:
            assert e["stream_share_min"] == e["stream_share_max"] == 1, e
        # A point its time limit cut short of the rule's 5 samples says so; others do not.
        if len(p["samples"]) < 5:
            assert e.get("min_samples") == 5, (c["params"], p["bytes"], len(p["samples"]), e)
        else:
            assert "min_samples" not in e, e
# Samples are windows of 50 ms on the receiver's clock, not a fixed burst of a few ms.
durations.sort()
assert durations[len(durations) // 2] > 0.04, durations
dirs = {(c["params"]["direction"], c["params"]["streams"]) for c in tcp if c["benchmark"] == "net.tcp.bandwidth"}
assert dirs == {(d, s) for d in ("to_peer", "from_peer", "bidir") for s in (1, 2)}, dirs
PY

file="$TEST_TMP/busy.json"
expect_exit 0 "latency with --busy-poll on" -- \
  "$GPUBENCH" run --suite network --filter 'net\.tcp\.latency' --quiet --sizes 64 \
  --busy-poll on --out "$file"
"$py" -c 'import json,sys; c=json.load(open(sys.argv[1]))["results"][0]; assert c["status"]=="ok" and "busy_poll" in c["context"], c' "$file" \
  && pass "busy-poll recorded in the context" || fail "busy-poll case wrong"

expect_exit 2 "--streams 0 is a usage error" -- \
  "$GPUBENCH" run --suite network --filter 'net\.tcp' --streams 0 --out "$TEST_TMP/x.json"
expect_contains "$err" "--streams" "the message names --streams"
expect_exit 2 "a bad --peer port is a usage error" -- \
  "$GPUBENCH" run --suite network --filter 'net\.tcp' --peer host:99999 --out "$TEST_TMP/x.json"
expect_exit 2 "a missing token file is an input error" -- \
  "$GPUBENCH" run --suite network --filter 'net\.tcp' --token-file "$TEST_TMP/none" --out "$TEST_TMP/x.json"

file="$TEST_TMP/refused.json"
expect_exit 1 "a peer that is not there fails its cases" -- \
  "$GPUBENCH" run --suite network --filter 'net\.tcp\.latency' --quiet --peer 127.0.0.1:1 --out "$file"
"$py" -c 'import json,sys; c=json.load(open(sys.argv[1]))["results"][0]; assert c["status"]=="failed" and "connecting to 127.0.0.1:1" in c["reason"], c["reason"]' "$file" \
  && pass "the failure names the peer" || fail "refused peer: reason lacks the address"
finish
