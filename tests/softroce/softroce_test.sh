#!/usr/bin/env bash
# Soft-RoCE: net.rdma.* and an MPI allreduce on a real kernel RDMA stack. Boots Debian's kernel
# under QEMU (vm.sh) twice at once, joined by a virtual wire (guest.sh says what each runs):
#   guest A: rxe0 on a veth end, every net.rdma.* case in loopback with --rdma-cm off;
#            then rxe0 on its NIC, `gpubench serve` and an ssh server;
#   guest B: meanwhile the same loopback cases with --rdma-cm on; then rxe0 on its NIC, every
#            net.rdma.* case towards A in both connection and both
#            completion modes over 2 B..1 MiB; a client killed mid-point (A's server must take
#            the next client within 2 s) and eth0 taken down mid-point (the case must fail
#            naming IBV_EVENT_PORT_ERR); then coll.allreduce across A and B under mpirun,
#            over UCX on rxe0 and over TCP.
# check_result.py and check_coll.py then check every result file. Skipped (77) only when no
# guest can boot here.
# usage: softroce_test.sh GPUBENCH
set -u
gpubench=$(realpath "${1:?usage: softroce_test.sh GPUBENCH}")
here=$(cd "$(dirname "$0")" && pwd)
source "$here/vm.sh"

why=$(softroce_why_not)
if [[ -n $why ]]; then
  echo "SKIP: cannot boot a soft-RoCE guest: $why"
  exit 77
fi
python=/usr/bin/python3
[[ -x $python ]] || python=$(command -v python3)

out=$(mktemp -d "${TMPDIR:-/tmp}/gpubench-softroce.XXXXXX")
[[ ${KEEP:-0} == 1 ]] || trap 'rm -rf "$out"' EXIT
chmod 755 "$out"
kver=$(softroce_kernel)
t0=$SECONDS
softroce_initramfs "$kver" "$out/initramfs.gz" || { echo "FAIL: building the initramfs"; exit 1; }
echo "initramfs for $kver built in $((SECONDS - t0)) s"

# B's mpirun reaches A over ssh: a client key and A's host key, made here (the guests' own
# random pools start slowly).
dropbearkey -t ed25519 -f "$out/ssh-client-key" >/dev/null &&
  dropbearkey -t ed25519 -f "$out/ssh-host-key" >/dev/null ||
  { echo "FAIL: dropbearkey could not make the ssh keys"; exit 1; }
chmod 644 "$out/ssh-client-key" # the guests' root reads it through the share
for role in a b; do
  cat >"$out/$role.sh" <<SH
export GPUBENCH=$gpubench OUT=$out
exec bash $here/guest.sh $role
SH
done

limit=540
softroce_pair "$kver" "$out/initramfs.gz" "$out" a "$out/a.sh" b "$out/b.sh" "$limit"
touch "$out/b.done" # B is gone either way: A stops waiting for it
wait "$SOFTROCE_PID_A"
rc_a=$?
echo "guests done after $((SECONDS - t0)) s (qemu exit: A $rc_a, B $SOFTROCE_RC_B)"

failed=0
for role in a b; do
  echo "--- guest $role: $out/$role.log"
  cat "$out/$role.log" 2>/dev/null
  rc=$(cat "$out/$role.rc" 2>/dev/null)
  if [[ $rc != 0 ]]; then
    echo "FAIL: guest $role: ${rc:+its script exited $rc}${rc:-no exit status (did not finish: qemu exit A $rc_a, B $SOFTROCE_RC_B)}; console:"
    tail -n 40 "$out/$role.console"
    failed=1
  fi
done
check() { # check SCRIPT FILE LABEL [options]
  local script=$1
  shift
  if [[ ! -s $1 ]]; then
    echo "FAIL: $2: no result file"
    failed=1
  elif ! "$python" "$here/$script" "$@"; then
    failed=1
  fi
}
check check_result.py "$out/loopback-cm-off.json" "loopback --rdma-cm off" --sizes 4096
check check_result.py "$out/loopback-cm-on.json" "loopback --rdma-cm on" --rdma-cm on --sizes 4096
check check_result.py "$out/two-hosts-manual-poll.json" "two hosts, manual, poll" --two-hosts \
  --inline 64 --sizes 2,64,2048,65536,1048576
check check_result.py "$out/two-hosts-cm-event.json" "two hosts, rdma_cm, event" --two-hosts \
  --inline 64 --rdma-cm on --completion event --sizes 2,64,2048,65536,1048576
check check_failure.py "$out/port-down.json" "port down mid-point" IBV_EVENT_PORT_ERR
for transport in ucx tcp; do
  check check_coll.py "$out/coll-$transport.json" "allreduce over $transport" "$transport" \
    "$out/coll-$transport.log" "$out/coll-$transport.counters"
done
if ((failed)); then
  echo "soft-RoCE: FAILED (KEEP=1 keeps $out)"
  exit 1
fi
echo "soft-RoCE: all checks passed in $((SECONDS - t0)) s"
