#!/usr/bin/env bash
# Faults between two namespace hosts: the server killed mid-case (the client fails that case
# fast, naming the peer and the case, keeps earlier results, then goes on or stops as
# --on-error says), and a client killed mid-case (the server serves the next client).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/netns.sh"
set -e
netns_up
py=$(schema_python)
SERVER_PID=""
trap 'kill $SERVER_PID 2>/dev/null; netns_down; rm -rf "$TEST_TMP"' EXIT

# start_client FILE ARGS...: a long network run in the client namespace, in the background.
start_client() {
  local file=$1
  shift
  ip netns exec "$NS_CLI" "$GPUBENCH" run --suite network --filter 'net\.tcp' --quiet \
    --peer "$SRV_ADDR" --sizes 4K:4M --streams 2 --out "$file" "$@" \
    >"$file.out" 2>"$file.err" &
  CLIENT_PID=$!
}
wait_first_case() {
  for _ in $(seq 1 200); do
    grep -q '"benchmark"' "$1" 2>/dev/null && return 0
    sleep 0.05
  done
  fail "no case finished in 10 s"
}

for policy in continue stop; do
  serve_in_srv "$TEST_TMP/serve-$policy.log"
  file="$TEST_TMP/killed-$policy.json"
  start_client "$file" --on-error "$policy"
  wait_first_case "$file"
  sleep 0.5
  kill -9 "$SERVER_PID"
  killed_at=$(date +%s%N)
  set +e
  wait "$CLIENT_PID"
  code=$?
  set -e
  took=$((($(date +%s%N) - killed_at) / 1000000))
  [[ $code -eq 1 ]] && pass "server killed ($policy): client exits 1" || fail "server killed ($policy): exit $code; $(cat "$file.err")"
  if ((took < 10000)); then pass "client done ${took} ms after the kill"; else fail "client took ${took} ms after the kill"; fi
  validate "$file"
  "$py" - "$file" "$policy" <<'PY' && pass "failure names peer and case; earlier results kept ($policy)" || fail "killed-server result wrong ($policy)"
import json, sys
d, policy = json.load(open(sys.argv[1])), sys.argv[2]
res = d["results"]
assert res[0]["status"] == "ok" and res[0]["points"], "the case before the kill is lost"
failed = [c for c in res if c["status"] == "failed"]
assert failed, "no failed case"
why = failed[0]["reason"]
assert "198.18.0.1:18515" in why and "net.tcp." in why, why
if policy == "stop":
    assert d["run"]["status"] == "partial" and res[-1] is failed[0], d["run"]["status"]
    assert "--on-error stop" in why, why
else:
    assert d["run"]["status"] == "complete"
    assert len(res) == 7, len(res)
print(why)
PY
done

serve_in_srv "$TEST_TMP/serve-client-killed.log"
file="$TEST_TMP/client-killed.json"
start_client "$file"
wait_first_case "$file"
sleep 0.5
kill -9 "$CLIENT_PID"
wait "$CLIENT_PID" 2>/dev/null || true
next="$TEST_TMP/next.json"
expect_exit 0 "the server serves the next client after one vanished mid-case" -- \
  timeout 30 ip netns exec "$NS_CLI" "$GPUBENCH" run --suite network --filter 'net\.tcp\.latency' \
  --quiet --peer "$SRV_ADDR" --sizes 64 --out "$next"
expect_contains "$(cat "$TEST_TMP/serve-client-killed.log")" "dropped" "the server logged why it dropped the session"
kill "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
finish
