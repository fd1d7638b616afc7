# Sourced by the interrupt tests of MPI launches (stop_plain_test.sh, cluster_stop_test.sh): 4
# ranks on this machine over loopback (loopback_ranks_lib.sh: each its own test-only node name,
# which only cluster mode looks at), one launch at a time:
#   stop_launch NAME ARGS...   starts `gpubench run ARGS --out $tmp/NAME.json` under mpirun
#   stop_wait_file             until rank 0 has written its file (the run has begun)
#   stop_wait_line PATTERN     until rank 0's output has a line matching PATTERN
#   stop_signal SIG VICTIM     sends SIG to VICTIM ("mpirun" or "rank:N"), starts the clock
#   stop_wait                  waits for mpirun: sets `rc` and `took` (seconds since the signal)
#   stop_check_partial         rank 0's file is schema-valid, "partial", and keeps a result
# Uses lib.sh's pass/fail/validate (source lib.sh first).
source "$(dirname "${BASH_SOURCE[0]}")/loopback_ranks_lib.sh"
trap 'rm -rf "$tmp" "$TEST_TMP"' EXIT

stop_launch() {
  stop_name=$1
  shift
  stop_file="$tmp/$stop_name.json"
  stop_log="$tmp/$stop_name.txt"
  loopback_mpirun 4 150 "$GPUBENCH" run "$@" --out "$stop_file" >"$stop_log" 2>&1 &
  stop_pid=$!
}

# The pid of the process whose command line names this launch's file: mpirun, or world rank N.
stop_victim() {
  local want=$1 d p args
  # /proc itself, matched as a fixed string: the file's path may hold regex characters, and pgrep
  # (procps) is not on every machine.
  for d in /proc/[0-9]*; do
    p=${d#/proc/}
    args=$(tr '\0' ' ' <"$d/cmdline" 2>/dev/null) || continue
    [[ $args == *"--out $stop_file"* ]] || continue
    if [[ $want == mpirun ]]; then
      [[ $args == mpirun* ]] && { echo "$p"; return 0; }
    elif [[ $args == *" run "* && $(cat "/proc/$p/comm" 2>/dev/null) == gpubench ]]; then
      tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=${want#rank:}" &&
        { echo "$p"; return 0; }
    fi
  done
  return 1
}

stop_gone() {
  kill -0 "$stop_pid" 2>/dev/null && return 1
  sed 's/^/  | /' "$stop_log" | tail -20
  fail "$stop_name: the launch ended before it could be interrupted"
  return 0
}

# Waiting for a finished case would leave the signal racing the end of a short run: the tests
# wait for the file and a fixed time into the first case instead.
stop_wait_file() {
  for _ in $(seq 1 1200); do
    [[ -s $stop_file ]] && return 0
    stop_gone && return 1
    sleep 0.1
  done
  fail "$stop_name: no result file after 120 s"
  return 1
}

stop_wait_line() {
  for _ in $(seq 1 1200); do
    grep -q -- "$1" "$stop_log" && return 0
    stop_gone && return 1
    sleep 0.1
  done
  fail "$stop_name: no line '$1' after 120 s"
  return 1
}

stop_signal() {
  local victim
  stop_gone && return 1
  victim=$(stop_victim "$2") || { fail "$stop_name: no process $2 found"; return 1; }
  stop_t0=$(date +%s.%N)
  kill -"$1" "$victim"
}

stop_wait() {
  rc=0
  wait "$stop_pid" || rc=$?
  took=$(python3 -c "print(round($(date +%s.%N) - $stop_t0, 1))")
  echo "$stop_name: mpirun ended ${took} s after the signal (rc $rc)"
}

# stop_within LIMIT: the launch ended within LIMIT seconds of the signal (never timeout(1)'s 124).
stop_within() {
  if [[ $rc -eq 124 ]] || ! python3 -c "import sys; sys.exit(0 if $took < $1 else 1)"; then
    sed 's/^/  | /' "$stop_log" | tail -20
    fail "$stop_name: took ${took} s (rc $rc), expected under $1 s"
  else
    pass "$stop_name: every rank stopped within $1 s (${took} s)"
  fi
}

stop_check_partial() {
  [[ -s $stop_file ]] || { fail "$stop_name: no result file"; return 1; }
  validate "$stop_file"
  python3 - "$stop_file" <<'PY' && pass "$stop_name: the file is partial and keeps what was measured" ||
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["status"] == "partial", d["run"]["status"]
assert d["run"]["finished"], "no finished time"
cl = d.get("cluster", {})
kept = len(d["results"]) + len(cl.get("pairs", [])) + sum(len(n.get("results", [])) for n in cl.get("nodes", []))
assert kept > 0, "nothing kept"
PY
    fail "$stop_name: rank 0's file is not a partial file with results"
}
