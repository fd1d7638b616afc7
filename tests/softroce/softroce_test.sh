#!/usr/bin/env bash
# Soft-RoCE: net.rdma.* on a real kernel RDMA stack. Boots Debian's kernel under QEMU (vm.sh)
# twice at once, joined by a QEMU socket netdev:
#   guest A: rxe0 on a veth end, every net.rdma.{latency,bandwidth} case (send, write, read;
#            one way and both ways) in loopback with --rdma-cm off and on and with event completions; then rxe0 on its NIC
#            and `gpubench serve`;
#   guest B: rxe0 on its NIC, the cases (one way and both ways) with --peer towards A.
# check_result.py then checks every result file. Skipped (77) only when no guest can boot here.
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

# Small sweeps on the emulated device: one size (4 KiB), short bandwidth samples, generous waits
# (TCG emulation is one to two orders of magnitude slower than the host).
case_args="--sizes 4K --rdma-iters 100 --io-timeout 30"
for role in loopback peer; do
  cat >"$out/$role.sh" <<SH
export GPUBENCH=$gpubench OUT=$out CASE_ARGS="$case_args"
exec bash $here/guest.sh $role
SH
done

# The two guests' NICs: a QEMU socket netdev, A listening on a free local port.
port=$("$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
limit=280
softroce_boot "$kver" "$out/initramfs.gz" "$out" loopback "$out/loopback.sh" "$limit" \
  -netdev "socket,id=n0,listen=127.0.0.1:$port" -device virtio-net-pci,netdev=n0,mac=52:54:00:5e:18:01 &
a=$!
for ((i = 0; i < 100; i++)); do # until A's qemu listens (a probe would take its one accept)
  [[ -n $(ss -Hltn "sport = :$port" 2>/dev/null) ]] && break
  sleep 0.1
done
softroce_boot "$kver" "$out/initramfs.gz" "$out" peer "$out/peer.sh" "$limit" \
  -netdev "socket,id=n0,connect=127.0.0.1:$port" -device virtio-net-pci,netdev=n0,mac=52:54:00:5e:18:02 &
b=$!
wait "$b"
rc_b=$?
touch "$out/peer.done" # B is gone either way: A stops waiting for it
wait "$a"
rc_a=$?
echo "guests done after $((SECONDS - t0)) s (qemu exit: A $rc_a, B $rc_b)"

failed=0
for role in loopback peer; do
  echo "--- guest $role: $out/$role.log"
  cat "$out/$role.log" 2>/dev/null
  rc=$(cat "$out/$role.rc" 2>/dev/null)
  if [[ $rc != 0 ]]; then
    echo "FAIL: guest $role: ${rc:+its script exited $rc}${rc:-no exit status (did not finish: qemu exit A $rc_a, B $rc_b)}; console:"
    tail -n 40 "$out/$role.console"
    failed=1
  fi
done
check() { # check FILE LABEL [--rdma-cm on]
  if [[ ! -s $1 ]]; then
    echo "FAIL: $2: no result file"
    failed=1
  elif ! "$python" "$here/check_result.py" "$@"; then
    failed=1
  fi
}
check "$out/loopback-cm-off.json" "loopback --rdma-cm off"
check "$out/loopback-cm-on.json" "loopback --rdma-cm on" --rdma-cm on
check "$out/loopback-event.json" "loopback --rdma-completion event" --completion event
check "$out/two-hosts.json" "two hosts"
if ((failed)); then
  echo "soft-RoCE: FAILED (KEEP=1 keeps $out)"
  exit 1
fi
echo "soft-RoCE: all checks passed in $((SECONDS - t0)) s"
