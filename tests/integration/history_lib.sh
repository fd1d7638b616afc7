# Shared by the store's tests (source after lib.sh): two writers at once, and a throwaway
# PostgreSQL server on a unix socket in a temporary folder.

# two_writers STORE DIR: writes 100 runs each of two hosts into DIR, adds them with two writers
# started together (each ten `store add` processes of ten runs), and checks that both succeeded,
# that they ran at the same time, and that the store holds all 200 runs and 400 points.
two_writers() {
  local store=$1 dir=$2 here
  here=$(dirname "${BASH_SOURCE[0]}")
  python3 "$here/history_runs.py" "$dir/a" 100 --prefix a --host node-a --seed 1
  python3 "$here/history_runs.py" "$dir/b" 100 --prefix b --host node-b --seed 2
  # The store is new: the writers race to create its tables too, as two CI jobs on first use.
  local pids=() w
  for w in a b; do
    # Both wait for one signal, so neither is a process start-up ahead.
    (while [[ ! -e $dir/go ]]; do sleep 0.01; done
     date +%s.%N >"$dir/$w.start"
     # Ten processes of ten runs each, one after the other, as CI jobs adding theirs: a writer
     # lasts long enough that the two surely overlap on a busy machine.
     rc=0
     files=("$dir/$w"/*.json)
     for ((k = 0; k < ${#files[@]}; k += 10)); do
       "$GPUBENCH" store add --store "$store" "${files[@]:k:10}" >>"$dir/$w.out" 2>&1 || rc=$?
     done
     echo $rc >"$dir/$w.rc"
     date +%s.%N >"$dir/$w.end") &
    pids+=($!)
  done
  touch "$dir/go"
  wait "${pids[@]}"
  for w in a b; do
    [[ $(cat "$dir/$w.rc") == 0 ]] && pass "writer $w added its 100 runs" ||
      fail "writer $w: exit $(cat "$dir/$w.rc"): $(cat "$dir/$w.out")"
  done
  if python3 -c 'import sys; a0, a1, b0, b1 = map(float, sys.argv[1:]); sys.exit(0 if a0 < b1 and b0 < a1 else 1)' \
      "$(cat "$dir/a.start")" "$(cat "$dir/a.end")" "$(cat "$dir/b.start")" "$(cat "$dir/b.end")"; then
    pass "the two writers ran at the same time"
  else
    fail "the writers did not overlap: a $(cat "$dir/a.start")-$(cat "$dir/a.end"), b $(cat "$dir/b.start")-$(cat "$dir/b.end")"
  fi
  local info
  info=$("$GPUBENCH" store info --store "$store")
  expect_contains "$info" "runs: 200" "no run lost: 200 in the store"
  expect_contains "$info" "points: 400" "no point lost: 400 in the store"
}

# pg_start DIR: initdb and start a PostgreSQL server listening only on a unix socket in DIR (as
# nobody when run as root: the server refuses root). Sets PG_URI; pg_stop stops it. Returns 1
# with PG_WHY set when it cannot.
PG_BIN=${PG_BIN:-}
pg_start() {
  local dir=$1 bin
  if [[ -z $PG_BIN ]]; then
    for bin in /usr/lib/postgresql/*/bin; do [[ -x $bin/initdb ]] && PG_BIN=$bin; done
  fi
  [[ -n $PG_BIN && -x $PG_BIN/pg_ctl ]] || { PG_WHY="no PostgreSQL server (initdb, pg_ctl): scripts/setup.sh --tests installs postgresql"; return 1; }
  PG_DIR=$dir
  PG_AS=()
  mkdir -p "$dir"
  if [[ $(id -u) -eq 0 ]]; then
    command -v runuser >/dev/null || { PG_WHY="root needs runuser to start PostgreSQL as nobody"; return 1; }
    chown nobody "$dir"
    chmod 755 "$(dirname "$dir")"
    PG_AS=(runuser -u nobody --)
  fi
  "${PG_AS[@]}" "$PG_BIN/initdb" -D "$dir/data" -U gpubench --auth=trust -E UTF8 --locale=C \
    >"$dir/initdb.log" 2>&1 || { PG_WHY="initdb failed: $(tail -3 "$dir/initdb.log")"; return 1; }
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off" start \
    >"$dir/pg_ctl.log" 2>&1 || { PG_WHY="the server did not start: $(tail -3 "$dir/server.log")"; return 1; }
  PG_URI="postgresql:///postgres?host=$dir&user=gpubench"
}

pg_stop() {
  [[ -n ${PG_DIR:-} && -e $PG_DIR/data/postmaster.pid ]] || return 0
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
}
