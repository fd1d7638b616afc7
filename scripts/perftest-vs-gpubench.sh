#!/usr/bin/env bash
# gpubench against perftest across two soft-RoCE guests (rxe0 on each guest's NIC, joined by a
# virtual wire), booted as the soft-RoCE tests boot theirs (tests/softroce/vm.sh), in the same
# boot. Prints gpubench / perftest for ib_send_lat, ib_write_lat, ib_read_lat (2 B, 4 KiB) and
# ib_send_bw, ib_write_bw, ib_read_bw (4 KiB, 64 KiB, 1 MiB). Goal: bandwidth >= 0.95x,
# latency <= 1.05x. A benchmark, not a test: an emulated device is slow and noisy (run it
# twice), and the numbers say how the harnesses compare, not what RDMA hardware does.
#
# What is compared, and where the two measure differently:
#  - latency: gpubench's median against perftest's t_typical (its median), both one-way for
#    send and write (half the round trip) and a whole round trip for read. gpubench keeps every
#    sample after 100 warm-ups and stops at 2 s per size; perftest runs -n 1000 iterations.
#    Both inline sends and writes up to 64 B (perftest -I 64, gpubench --rdma-inline 64), so
#    the 2 B messages go inline and the 4 KiB ones do not, on both.
#  - bandwidth: gpubench's median sample against perftest's "BW average" (MB/sec there is
#    2^20 bytes/s; converted to decimal GB/s here). perftest times one run of -n work requests
#    (1000; 200 at 1 MiB); gpubench times several samples, each sized from a calibrated rate to
#    last about 50 ms (--rdma-iters work requests at least, as far as 100 ms allows), and
#    reports their median; the calibration probes are its warm-up.
#  - both use one RC QP, a window of 128 outstanding work requests and a signalled completion
#    every 100 (perftest's -t 128 -Q 100 are set explicitly), no inline in bandwidth tests
#    (perftest's default there, gpubench's too), the GID of the IPv4 RoCE v2 entry.
#
# Usage: scripts/perftest-vs-gpubench.sh [path/to/gpubench]   (needs what scripts/setup.sh --tests
# installs: qemu-system-x86, linux-image-amd64, busybox-static, dropbear-bin, perftest)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# Every test, in order: TOOL SIZE perftest-options. Both guests walk this list.
tests() {
  local op size
  for op in send write read; do
    for size in 2 4096; do
      if [[ $op == read ]]; then echo "ib_${op}_lat $size -n 1000"; else echo "ib_${op}_lat $size -n 1000 -I 64"; fi
    done
    for size in 4096 65536 1048576; do
      echo "ib_${op}_bw $size -n $((size > 65536 ? 200 : 1000)) -t 128 -Q 100"
    done
  done
}
ipv4_gid() { # the GID index perftest needs (-x): the IPv4 RoCE v2 entry, as gpubench chooses
  local f i
  for f in /sys/class/infiniband/rxe0/ports/1/gids/*; do
    i=${f##*/}
    [[ $(cat "$f") == 0000:0000:0000:0000:0000:ffff:* ]] || continue
    [[ $(cat "/sys/class/infiniband/rxe0/ports/1/gid_attrs/types/$i" 2>/dev/null) == "RoCE v2" ]] &&
      { echo "$i"; return; }
  done
}
if [[ ${1:-} == --in-guest ]]; then
  # ---- inside a guest: `--in-guest a|b GPUBENCH OUT` ----
  role=$2 gpubench=$3 out=$4
  set +e
  export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  exec >"$out/guest-$role.log" 2>&1
  ip link set lo up
  if [[ $role == a ]]; then me=198.18.1.1; else me=198.18.1.2; fi
  ip addr add "$me/24" dev eth0
  ip link set eth0 up
  rdma link add rxe0 type rxe netdev eth0 || exit 1
  gid=$(ipv4_gid)
  echo "GID index $gid"
  n=0
  while read -r tool size opts; do
    n=$((n + 1))
    # shellcheck disable=SC2086 # opts is a list of options
    if [[ $role == a ]]; then # the server of each test, one after the other
      timeout 200 "$tool" -d rxe0 -i 1 -x "$gid" -s "$size" -F $opts >"$out/server-$n.txt" 2>&1 &
      server=$!
      sleep 1
      touch "$out/ready-$n"
      wait "$server"
    else
      for ((i = 0; i < 100; i++)); do [[ -e $out/ready-$n ]] && break; sleep 0.5; done
      for try in 1 2 3 4 5 6 7 8 9 10; do # until the server listens (slow to start under TCG)
        timeout 180 "$tool" -d rxe0 -i 1 -x "$gid" -s "$size" -F $opts 198.18.1.1 \
          >"$out/$tool-$size.txt" 2>&1
        grep -q "Couldn't connect" "$out/$tool-$size.txt" || break
        sleep 1
      done
    fi
  done < <(tests)
  if [[ $role == a ]]; then
    "$gpubench" serve --bind 198.18.1.1 --port 18515 --io-timeout 60 >"$out/serve.log" 2>&1 &
    serve=$!
    touch "$out/serve.ready"
    for ((i = 0; i < 1200; i++)); do [[ -e $out/b.done ]] && break; sleep 0.5; done
    kill "$serve"
  else
    for ((i = 0; i < 100; i++)); do [[ -e $out/serve.ready ]] && break; sleep 0.5; done
    sleep 1
    for op in send write read; do
      "$gpubench" run --suite network --filter '^net\.rdma\.latency$' --quiet --rdma-op "$op" \
        --peer 198.18.1.1:18515 --sizes 2:4K:2048 --rdma-inline 64 --io-timeout 30 \
        --out "$out/gpubench-lat-$op.json"
      "$gpubench" run --suite network --filter '^net\.rdma\.bandwidth$' --quiet --rdma-op "$op" \
        --peer 198.18.1.1:18515 --rdma-direction uni --sizes 4K:1M:16 --rdma-iters 1000 \
        --io-timeout 30 --out "$out/gpubench-bw-$op.json"
    done
    touch "$out/b.done"
  fi
  exit 0
fi

# ---- on the host ----
gpubench=$(realpath "${1:-build/gpubench}")
source "$here/../tests/softroce/vm.sh"
why=$(softroce_why_not)
[[ -z $why ]] || { echo "cannot boot a soft-RoCE guest: $why" >&2; exit 1; }
out=$(mktemp -d "${TMPDIR:-/tmp}/perftest-vs-gpubench.XXXXXX")
[[ ${KEEP:-0} == 1 ]] || trap 'rm -rf "$out"' EXIT
chmod 755 "$out"
kver=$(softroce_kernel)
softroce_initramfs "$kver" "$out/initramfs.gz"
for role in a b; do
  echo "exec bash $here/perftest-vs-gpubench.sh --in-guest $role $gpubench $out" >"$out/$role.sh"
done
echo "booting two guests ($kver, TCG) and running perftest and gpubench across them (about 10 minutes) ..."
softroce_pair "$kver" "$out/initramfs.gz" "$out" a "$out/a.sh" b "$out/b.sh" 1500
touch "$out/b.done"
wait "$SOFTROCE_PID_A" || true
if [[ ! -s $out/b.rc ]]; then
  echo "guest B did not finish (console and log follow); ratios of what ran:" >&2
  tail -n 30 "$out/b.console" "$out/guest-b.log" >&2
fi
/usr/bin/python3 - "$out" <<'PY'
import json, re, sys
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
Across two emulated guests: rxe0 on each guest's NIC, the same boot, perftest first, then
gpubench (guest A serving, guest B measuring).
Where the two measure differently:
  latency   gpubench: median of every round trip after 100 warm-ups, at most 2 s per size;
            perftest: t_typical (median) of -n 1000. Both one-way (half the round trip) for
            send and write, the whole round trip for read; both inline up to 64 B.
  bandwidth gpubench: median of several samples of about 50 ms each (at least --rdma-iters
            1000 work requests, as far as 100 ms allows), after calibration probes that are
            its warm-up; perftest: BW average of one run of -n 1000 (200 at 1 MiB;
            MB/sec = 2^20 B/s, converted to decimal GB/s). Both: one RC QP, 128 outstanding,
            a signalled completion every 100, no inline.
  On an emulated device both follow how the host schedules the guests' vCPUs more than RDMA:
  run it twice before reading a ratio as a difference of the harnesses.""")
PY
