#!/usr/bin/env bash
# One stream of four held back on a 1 Gbit/s link: htb gives the client's data stream with one
# chosen source port a 20 Mbit/s class and everything else the link. Samples that sum every
# stream's bytes in a fixed time (as iperf3 -P) still read close to the link's goodput, and the
# point records the held stream's small share; the finding names it in the report. Samples
# that ended with the slowest stream read four times the held stream's rate (about 0.01 GB/s)
# and had no shares to record, so this test fails on that method.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/netns.sh"
set -e
netns_up
py=$(schema_python)
command -v ss >/dev/null || netns_skip "needs ss (iproute2) to find the stream to hold back"
serve_in_srv "$TEST_TMP/serve.log"
client=""
trap '[[ -n $client ]] && kill $client 2>/dev/null; kill $SERVER_PID 2>/dev/null || true; netns_down; rm -rf "$TEST_TMP"' EXIT
in_cli() { ip netns exec "$NS_CLI" "$@"; }

in_cli tc qdisc add dev eth0 root handle 1: htb default 10
in_cli tc class add dev eth0 parent 1: classid 1:1 htb rate 1gbit ceil 1gbit
in_cli tc class add dev eth0 parent 1:1 classid 1:10 htb rate 1gbit ceil 1gbit
in_cli tc class add dev eth0 parent 1:1 classid 1:20 htb rate 20mbit ceil 20mbit

file="$TEST_TMP/held.json"
in_cli "$GPUBENCH" run --suite network --filter 'net\.tcp\.bandwidth' --quiet --peer "$SRV_ADDR" \
  --streams 4 --sizes 16K:4M --out "$file" >"$TEST_TMP/run.out" 2>"$TEST_TMP/run.err" &
client=$!

# The four-stream case to the peer is the first with four connections that have each sent
# over 1 MB to one port of the server (the control port aside); its first point finds them.
pick_stream() {
  in_cli ss -tniH state established dst "$SRV_ADDR" | "$py" -c '
import re, sys
lines = sys.stdin.read().splitlines()
by_port = {}
for head, info in zip(lines[::2], lines[1::2]):
    local, peer = head.split()[-2:]
    acked = re.search(r"bytes_acked:(\d+)", info)
    if peer.endswith(":18515") or not acked or int(acked.group(1)) < 1_000_000:
        continue
    by_port.setdefault(peer, []).append(int(local.rsplit(":", 1)[1]))
for ports in by_port.values():
    if len(ports) >= 4:
        print(min(ports))
'
}
port=""
for _ in $(seq 1 600); do
  port=$(pick_stream || true)
  [[ -n $port ]] && break
  kill -0 "$client" 2>/dev/null || break
  sleep 0.1
done
if [[ -z $port ]]; then
  fail "no four-stream case found to hold a stream back: $(cat "$TEST_TMP/run.err")"
  finish
fi
in_cli tc filter add dev eth0 parent 1: protocol ip prio 1 u32 \
  match ip protocol 6 0xff match ip sport "$port" 0xffff flowid 1:20
pass "holding back the stream from port $port at 20 Mbit/s"
set +e
wait "$client"
rc=$?
set -e
client=""
[[ $rc -eq 0 ]] && pass "the run completed" || fail "run exit $rc: $(cat "$TEST_TMP/run.err")"
validate "$file"

"$py" - "$file" <<'PY' && pass "the held stream is seen and the others' bytes are counted" || fail "held-back stream: wrong figures"
import json, sys
d = json.load(open(sys.argv[1]))
c = next(c for c in d["results"] if c["params"]["streams"] == 4 and c["params"]["direction"] == "to_peer")
assert c["status"] == "ok", c.get("reason")
# The last point is measured well after the filter went on (the first point found the stream).
p = c["points"][-1]
e = p["extra"]
goodput = 1e9 / 8 * 1448 / 1514 / 1e9  # GB/s of TCP payload on a 1 Gbit/s Ethernet link
print(f"median {p['stats']['median']:.4f} GB/s (goodput {goodput:.4f})")
assert "stream_share_min" in e, f"no stream shares in the point: {e}"
print(f"stream shares {e['stream_share_min']:.3f} to {e['stream_share_max']:.3f} of an equal split")
# 20 Mbit/s against an equal split of the link (about 240 Mbit/s): under a tenth of its share.
assert e["stream_share_min"] < 0.5, e
assert e["stream_share_max"] > 1.1, e
# The other three fill the link: the sum is the link's, not four times the held stream's.
assert p["stats"]["median"] > 0.6 * goodput, p["stats"]
PY

expect_exit 0 "a report of the run" -- "$GPUBENCH" report "$file" --md "$TEST_TMP/report.md"
expect_contains "$(cat "$TEST_TMP/report.md")" "One of 4 parallel streams got" \
  "the report's findings name the held-back stream"
finish
