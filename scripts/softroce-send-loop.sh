#!/usr/bin/env bash
# The soft-RoCE send-bandwidth loop: send bandwidth over rdma_cm with completion events at
# 1, 2, 4 and 8 MiB, the case whose server once miscounted a point and stalled (docs/rdma.md,
# "Counting what arrived"), run PER_RUN times in a row between two soft-RoCE guests booted as
# the soft-RoCE test boots them (tests/softroce/vm.sh; guest.sh roles `loop-a` and `loop-b`),
# and that RUNS times, each in a fresh pair of guests. Every case must end ok with a point at
# each size whose server count of messages equals the client's. A long check, not a CTest
# test: about 6 minutes per run of 20 on an idle 2-core machine.
#
# usage: scripts/softroce-send-loop.sh [RUNS (20)] [PER_RUN (20)] [path/to/gpubench]
set -u
runs=${1:-20} per_run=${2:-20}
gpubench=$(realpath "${3:-build/gpubench}")
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../tests/softroce/vm.sh"
why=$(softroce_why_not)
[[ -z $why ]] || { echo "cannot boot a soft-RoCE guest: $why" >&2; exit 1; }
kver=$(softroce_kernel)
passed=0 t_all=$SECONDS
for ((run = 1; run <= runs; run++)); do
  out=$(mktemp -d "${TMPDIR:-/tmp}/softroce-send-loop.XXXXXX")
  chmod 755 "$out"
  t0=$SECONDS
  softroce_initramfs "$kver" "$out/initramfs.gz" || { echo "building the initramfs failed"; exit 1; }
  for role in loop-a loop-b; do
    printf 'export GPUBENCH=%s OUT=%s LOOP=%s\nexec bash %s/../tests/softroce/guest.sh %s\n' \
      "$gpubench" "$out" "$per_run" "$here" "$role" >"$out/$role.sh"
  done
  softroce_pair "$kver" "$out/initramfs.gz" "$out" loop-a "$out/loop-a.sh" loop-b \
    "$out/loop-b.sh" $((60 + 60 * per_run))
  touch "$out/b.done"
  wait "$SOFTROCE_PID_A"
  /usr/bin/python3 - "$out" "$per_run" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
sizes = [1 << 20, 2 << 20, 4 << 20, 8 << 20]
bad = []
for i in range(1, n + 1):
    try:
        cases = json.load(open(f"{out}/send-{i}.json"))["results"]
    except (OSError, ValueError) as e:
        bad.append(f"case {i}: no result ({e})")
        continue
    for c in cases:
        if c["status"] != "ok":
            bad.append(f"case {i}: {c['status']}: {c.get('reason', '')}")
            continue
        got = [p["bytes"] for p in c["points"]]
        if got != sizes:
            bad.append(f"case {i}: points at {got}")
        for p in c["points"]:
            x = p.get("extra", {})
            if x.get("messages_server") != x.get("messages_client"):
                bad.append(f"case {i} {p['bytes']} B: server {x.get('messages_server')} "
                           f"messages, client {x.get('messages_client')}")
print("\n".join(bad) if bad else f"all {n} cases ok, every count equal")
sys.exit(1 if bad else 0)
PY
  rc=$?
  ((rc == 0)) && passed=$((passed + 1))
  echo "run $run: $([[ $rc == 0 ]] && echo passed || echo "FAILED (kept: $out)") in $((SECONDS - t0)) s"
  ((rc == 0)) && rm -rf "$out"
done
echo "$passed of $runs runs of $per_run passed in $((SECONDS - t_all)) s"
((passed == runs))
