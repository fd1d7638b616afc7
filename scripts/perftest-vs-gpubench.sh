#!/usr/bin/env bash
# gpubench against perftest on the same soft-RoCE device (rxe0 on a veth end, loopback), in one
# QEMU guest booted as the soft-RoCE tests boot theirs (tests/softroce/vm.sh). Prints
# gpubench / perftest for ib_send_lat, ib_write_lat, ib_read_lat (2 B, 4 KiB) and ib_send_bw,
# ib_write_bw, ib_read_bw (4 KiB, 64 KiB, 1 MiB). Goal: bandwidth >= 0.95x, latency <= 1.05x.
# A benchmark, not a test: an emulated device is slow and noisy (run it twice), and the
# numbers say how the harnesses compare, not what RDMA hardware does.
#
# What is compared, and where the two measure differently:
#  - latency: gpubench's median against perftest's t_typical (its median), both one-way for
#    send and write (half the round trip) and a whole round trip for read. gpubench keeps every
#    sample after 100 warm-ups and stops at 2 s per size; perftest runs -n 1000 iterations.
#  - bandwidth: gpubench's median sample against perftest's "BW average" (MB/sec there is
#    2^20 bytes/s; converted to decimal GB/s here). perftest times one run of -n work requests;
#    gpubench times several samples, each sized from a calibrated rate to last about 50 ms
#    (--rdma-iters work requests at least, as far as 100 ms allows), and reports their median;
#    the calibration probes are its warm-up.
#  - both use one RC QP, a window of 128 outstanding work requests and a signalled completion
#    every 100 (perftest's -t 128 -Q 100 are set explicitly). Neither inlines in bandwidth
#    tests unless asked (perftest sets inline to 0 there); in latency tests both inline by
#    provider, and neither knows rxe, so here neither inlines at all.
#
# Usage: scripts/perftest-vs-gpubench.sh [path/to/gpubench]   (needs what scripts/setup.sh
# installs: qemu-system-x86, linux-image-amd64, busybox-static, perftest)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ ${1:-} == --in-guest ]]; then
  # ---- inside the guest ----
  gpubench=$2 out=$3
  set +e
  exec >"$out/guest.log" 2>&1
  ip link set lo up
  ip link add veth0 type veth peer name veth1
  ip addr add 198.18.0.1/24 dev veth0
  ip addr add 198.18.0.2/24 dev veth1
  ip link set veth0 up
  ip link set veth1 up
  rdma link add rxe0 type rxe netdev veth0 || exit 1
  # The GID perftest needs by index (-x): the IPv4 RoCE v2 entry, as gpubench chooses it.
  gid=
  for f in /sys/class/infiniband/rxe0/ports/1/gids/*; do
    i=${f##*/}
    [[ $(cat "$f") == 0000:0000:0000:0000:0000:ffff:* ]] || continue
    [[ $(cat "/sys/class/infiniband/rxe0/ports/1/gid_attrs/types/$i" 2>/dev/null) == "RoCE v2" ]] && { gid=$i; break; }
  done
  echo "GID index $gid"
  perftest() { # perftest TOOL SIZE ARGS...: server and client on rxe0, the client's output
    local tool=$1 size=$2
    shift 2
    timeout 150 "$tool" -d rxe0 -i 1 -x "$gid" -s "$size" -F "$@" >/dev/null 2>&1 &
    local server=$! try
    for try in 1 2 3 4 5 6 7 8 9 10; do # until the server listens (slow to start under TCG)
      sleep 1
      timeout 120 "$tool" -d rxe0 -i 1 -x "$gid" -s "$size" -F "$@" 198.18.0.1 \
        >"$out/$tool-$size.txt" 2>&1
      grep -q "Couldn't connect" "$out/$tool-$size.txt" || break
    done
    wait "$server"
  }
  for op in send write read; do
    for size in 2 4096; do perftest "ib_${op}_lat" "$size" -n 1000; done
    for size in 4096 65536 1048576; do perftest "ib_${op}_bw" "$size" -n 1000 -t 128 -Q 100; done
    "$gpubench" run --suite network --filter '^net\.rdma\.latency$' --quiet --rdma-op "$op" \
      --sizes 2:4K --io-timeout 30 --out "$out/gpubench-lat-$op.json"
    "$gpubench" run --suite network --filter '^net\.rdma\.bandwidth$' --quiet --rdma-op "$op" \
      --rdma-direction uni --sizes 4K:1M --rdma-iters 1000 --io-timeout 30 \
      --out "$out/gpubench-bw-$op.json"
  done
  exit 0
fi

# ---- on the host ----
gpubench=$(realpath "${1:-build/gpubench}")
source "$here/../tests/softroce/vm.sh"
why=$(softroce_why_not)
[[ -z $why ]] || { echo "cannot boot a soft-RoCE guest: $why" >&2; exit 1; }
out=$(mktemp -d "${TMPDIR:-/tmp}/perftest-vs-gpubench.XXXXXX")
trap 'rm -rf "$out"' EXIT
chmod 755 "$out"
kver=$(softroce_kernel)
softroce_initramfs "$kver" "$out/initramfs.gz"
echo "exec bash $here/perftest-vs-gpubench.sh --in-guest $gpubench $out" >"$out/cmd.sh"
echo "booting a guest ($kver, TCG) and running perftest and gpubench on rxe0 (about 3 minutes) ..."
softroce_boot "$kver" "$out/initramfs.gz" "$out" guest "$out/cmd.sh" 1500
if [[ ! -s $out/guest.rc ]]; then
  echo "the guest did not finish (console and log follow); ratios of what ran:" >&2
  tail -n 30 "$out/guest.console" "$out/guest.log" >&2
fi
/usr/bin/python3 - "$out" <<'PY'
import json, re, sys, os
out = sys.argv[1]

def perftest(tool, size):
    """perftest's data line: lat -> t_typical (us); bw -> BW average (MB/sec = 2^20 B/s) in GB/s."""
    try:
        text = open(f"{out}/{tool}-{size}.txt").read()
    except OSError:
        return None
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 5 and f[0] == str(size) and re.fullmatch(r"[0-9.]+", f[2]):
            return float(f[4]) if tool.endswith("_lat") else float(f[3]) * 1048576 / 1e9
    return None

def gpubench(kind, op, size):
    try:
        run = json.load(open(f"{out}/gpubench-{kind}-{op}.json"))
    except (OSError, ValueError):
        return None
    for case in run["results"]:
        if case["status"] != "ok":
            continue
        for p in case["points"]:
            if p["bytes"] == size:
                return p["stats"]["median"]
    return None

print(f"{'test':<14}{'size':>9}{'gpubench':>12}{'perftest':>12}{'ratio':>8}  goal")
for kind, sizes, unit, goal in (("lat", (2, 4096), "us", "<= 1.05"),
                                 ("bw", (4096, 65536, 1048576), "GB/s", ">= 0.95")):
    for op in ("send", "write", "read"):
        for size in sizes:
            g, p = gpubench(kind, op, size), perftest(f"ib_{op}_{kind}", size)
            ratio = f"{g / p:.2f}" if g and p else "n/a"
            fmt = (lambda v: f"{v:.2f}" if v is not None else "n/a") if unit == "us" else \
                  (lambda v: f"{v:.4f}" if v is not None else "n/a")
            print(f"{'ib_' + op + '_' + kind:<14}{size:>9}{fmt(g):>12}{fmt(p):>12}{ratio:>8}  {goal} ({unit})")
print("""
Where the two measure differently:
  latency   gpubench: median of every round trip after 100 warm-ups, at most 2 s per size;
            perftest: t_typical (median) of -n 1000. Both one-way (half the round trip) for
            send and write, the whole round trip for read.
  bandwidth gpubench: median of several samples of about 50 ms each (at least --rdma-iters
            1000 work requests, as far as 100 ms allows), after calibration probes that are
            its warm-up; perftest: BW average of one run of
            -n 1000 (MB/sec = 2^20 B/s, converted to decimal GB/s). Both: one RC QP, 128
            outstanding, a signalled completion every 100.
  On an emulated device both follow how the host schedules the guest's vCPUs more than RDMA:
  run it twice before reading a ratio as a difference of the harnesses.""")
PY
