#!/usr/bin/env bash
# `gpubench serve` under the attacks of issue 18, on 127.0.0.1 with the real binary: a
# trickled or oversized hello, 50 silent connections, a client arriving during a session
# (busy within 1 s), a forged log line in the hello, and a client with a token refusing a
# server that asks for none or cannot prove it. About 15 s.
source "$(dirname "$0")/lib.sh"
set -e
hostile="$(dirname "$0")/serve_hostile.py"
py=/usr/bin/python3  # not a version-manager shim: those take seconds to start
[[ -x $py ]] || py=$(command -v python3)
tool=$("$GPUBENCH" --version | awk 'NR == 1 {print $2}')
run_net() {  # run_net PORT [options...]: one quick TCP latency case against the server
  local port=$1
  shift
  "$GPUBENCH" run --suite network --filter 'net\.tcp\.latency' --quick --quiet --sizes 1K \
    --peer "127.0.0.1:$port" --out "$TEST_TMP/net-$port.json" "$@"
}

serve_pid=""
start_serve() {  # start_serve LOG [serve options...]; sets $port
  local log=$1
  shift
  "$GPUBENCH" serve --bind 127.0.0.1 --port 0 --handshake-timeout 1 "$@" >"$log.out" 2>"$log" &
  serve_pid=$!
  for _ in $(seq 50); do
    port=$(sed -n 's/.* on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log.out")
    [[ -n $port ]] && return 0
    sleep 0.1
  done
  fail "gpubench serve did not start: $(cat "$log")"
  exit 1
}
stop_serve() {
  kill -INT "$serve_pid" 2>/dev/null || true
  wait "$serve_pid" 2>/dev/null || true
}
trap 'stop_serve; rm -rf "$TEST_TMP"' EXIT

log="$TEST_TMP/serve.log"
start_serve "$log"

expect_exit 0 "a hello declared as 1 MiB is refused at once" -- "$py" "$hostile" "$port" "$tool" large_hello
expect_exit 0 "a hello trickled one byte per 300 ms is dropped" -- "$py" "$hostile" "$port" "$tool" trickle
pass "$out"
expect_contains "$(cat "$log")" "no complete handshake within 1.0 s" "the server logged the deadline"
# Again with a real client meanwhile: it is served (and the trickler, no longer alone, may be
# told busy instead of reaching its deadline).
"$py" "$hostile" "$port" "$tool" trickle >"$TEST_TMP/trickle" 2>&1 &
trickle_pid=$!
sleep 0.3
expect_exit 0 "a real client is served while a hello trickles in" -- run_net "$port"
if wait "$trickle_pid"; then pass "$(cat "$TEST_TMP/trickle")"; else fail "trickle: $(cat "$TEST_TMP/trickle")"; fi

# 50 connections that say nothing, held open while a real client runs.
mkfifo "$TEST_TMP/hold"
"$py" "$hostile" "$port" "$tool" silent <"$TEST_TMP/hold" >"$TEST_TMP/silent" 2>&1 &
silent_pid=$!
exec 7>"$TEST_TMP/hold"
for _ in $(seq 50); do grep -q open "$TEST_TMP/silent" 2>/dev/null && break; sleep 0.1; done
expect_contains "$(cat "$TEST_TMP/silent")" "50 silent connections open" "50 silent connections held"
expect_exit 0 "a real client is served despite 50 silent connections" -- run_net "$port"
exec 7>&-
wait "$silent_pid" || fail "silent: $(cat "$TEST_TMP/silent")"

expect_exit 0 "a client arriving during a session is told busy within 1 s" -- \
  "$py" "$hostile" "$port" "$tool" hold_then_busy
pass "$out"

expect_exit 0 "a hello whose tool text has a newline is refused" -- \
  "$py" "$hostile" "$port" "$tool" forged_tool
sleep 0.2
if grep -q '^2000-01-01T00:00:00Z gpubench serve: FORGED' "$log"; then
  fail "the hello's tool text wrote a line of its own in serve's log"
else
  pass "no forged log line"
fi
expect_contains "$(cat "$log")" '1.0\x0a2000-01-01' "the newline is shown escaped in the log"

# A client with a token refuses a server that asks for none: exit 1, the run ends at once.
echo right >"$TEST_TMP/token"
echo other >"$TEST_TMP/other"
expect_exit 1 "a client with a token refuses a server without one" -- \
  run_net "$port" --token-file "$TEST_TMP/token"
expect_contains "$err$out" "does not ask for a token" "the refusal says why"
stop_serve

start_serve "$TEST_TMP/serve-token.log" --token-file "$TEST_TMP/other"
expect_exit 1 "a client refuses a server with another token" -- \
  run_net "$port" --token-file "$TEST_TMP/token"
expect_contains "$err$out" "token" "the refusal names the token"
cp "$TEST_TMP/other" "$TEST_TMP/token"
expect_exit 0 "the same token on both sides works" -- run_net "$port" --token-file "$TEST_TMP/token"
stop_serve
finish
