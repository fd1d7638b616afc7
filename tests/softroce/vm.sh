# Soft-RoCE guests: Debian's own kernel booted under QEMU (TCG, no /dev/kvm needed) from a small
# busybox initramfs, the host's root shared read-only over 9p with a tmpfs overlay on top, a
# writable 9p share for results, and a command passed on the kernel command line. The guest
# powers off when the command ends. Source this file; see softroce_test.sh for its use.

SOFTROCE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Modules the initramfs loads (their dependencies come from modprobe --show-depends).
# crc32_generic: without it `rdma link add ... type rxe` fails with "No such file or directory".
# virtio_rng (with QEMU's virtio-rng-pci): without a source of entropy the guest's random pool
# takes minutes to start under TCG, and the ssh server of the MPI launch waits for it.
SOFTROCE_MODULES=(virtio_pci virtio_net virtio_rng 9pnet_virtio 9p overlay crc32_generic rdma_rxe rdma_ucm veth)

# softroce_why_not: prints why no guest can boot here (empty output: it can).
softroce_why_not() {
  command -v qemu-system-x86_64 >/dev/null || { echo "no qemu-system-x86_64 (Debian package qemu-system-x86)"; return; }
  [[ -x /usr/bin/busybox ]] && /usr/bin/busybox --list 2>/dev/null | grep -x insmod >/dev/null ||
    { echo "no static busybox at /usr/bin/busybox (Debian package busybox-static)"; return; }
  command -v modprobe >/dev/null || { echo "no modprobe (Debian package kmod)"; return; }
  command -v cpio >/dev/null || { echo "no cpio (Debian package cpio)"; return; }
  command -v dropbearkey >/dev/null || { echo "no dropbearkey (Debian package dropbear-bin)"; return; }
  [[ -n $(softroce_kernel) ]] ||
    { echo "no readable /boot/vmlinuz-* with rdma_rxe in /lib/modules (Debian package linux-image-amd64)"; return; }
}

# softroce_kernel: the newest kernel release with a readable image and the rxe module.
softroce_kernel() {
  local img kver best=
  for img in /boot/vmlinuz-*; do
    [[ -r $img ]] || continue
    kver=${img#/boot/vmlinuz-}
    compgen -G "/lib/modules/$kver/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko*" >/dev/null || continue
    best=$kver
  done
  echo "$best"
}

# softroce_initramfs KVER OUT.cpio.gz: busybox, the modules (decompressed, depmod -b) and /init.
softroce_initramfs() {
  local kver=$1 out=$2 root m line ko
  root=$(mktemp -d "${TMPDIR:-/tmp}/softroce-initramfs.XXXXXX")
  mkdir -p "$root"/{bin,dev,proc,sys,lower,upper,newroot,lib/modules/"$kver"}
  cp /usr/bin/busybox "$root/bin/busybox"
  : >"$root/modules.order"
  for m in "${SOFTROCE_MODULES[@]}"; do
    while read -r line; do
      [[ $line == insmod\ * ]] || continue # "builtin X" lines: nothing to load
      ko=$(awk '{print $2}' <<<"$line")
      local rel=${ko#/lib/modules/"$kver"/} name
      name=${rel%.xz}; name=${name%.zst}; name=${name%.gz}
      grep -qxF "$name" "$root/modules.order" && continue
      mkdir -p "$root/lib/modules/$kver/$(dirname "$rel")"
      case $ko in
        *.xz) xz -dc "$ko" ;;
        *.zst) zstd -dc "$ko" ;;
        *.gz) gzip -dc "$ko" ;;
        *) cat "$ko" ;;
      esac >"$root/lib/modules/$kver/$name"
      echo "$name" >>"$root/modules.order"
    done < <(modprobe --show-depends -S "$kver" "$m")
  done
  cp /lib/modules/"$kver"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$kver/" 2>/dev/null || true
  depmod -b "$root" "$kver"
  install -m 755 "$SOFTROCE_DIR/init" "$root/init"
  (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
  rm -rf "$root"
}

# -smp 1: with two vCPUs per guest, two guests on a 2-core host took 6 ms per RDMA round trip
# between them (ib_send_lat's typical; 0.3 ms with one vCPU each) and booted slower.
# no_timer_check: on a busy host, TCG runs the guest too slowly for the kernel's IO-APIC timer
# check, which then panics ("IO-APIC + timer doesn't work!").
# softroce_boot KVER INITRAMFS OUTDIR NAME SCRIPT TIMEOUT [extra qemu args...]
# Boots one guest that runs `bash SCRIPT` (a path visible on the host root) with OUTDIR mounted
# writable at the same path; the console goes to OUTDIR/NAME.console. Returns qemu's status.
softroce_boot() {
  local kver=$1 initrd=$2 out=$3 name=$4 script=$5 limit=$6
  shift 6
  [[ $out$script != *[[:space:]]* ]] || { echo "softroce: paths with spaces are not supported: $out $script" >&2; return 2; }
  timeout --kill-after=10 "$limit" qemu-system-x86_64 -machine q35 -accel tcg -m 2048 -smp 1 \
    -nographic -no-reboot -nodefaults -serial stdio -device virtio-rng-pci \
    -kernel "/boot/vmlinuz-$kver" -initrd "$initrd" \
    -append "console=ttyS0 panic=-1 no_timer_check quiet loglevel=4 rdinit=/init gbcmd=$script gbout=$out gbname=$name" \
    -virtfs local,path=/,mount_tag=hostroot,readonly=on,security_model=none,multidevs=remap \
    -virtfs local,path="$out",mount_tag=gbout,security_model=none,multidevs=remap \
    "$@" </dev/null >"$out/$name.console" 2>&1
}

# softroce_pair KVER INITRAMFS OUTDIR NAME_A SCRIPT_A NAME_B SCRIPT_B TIMEOUT
# Boots guests A (in the background: its qemu's pid in SOFTROCE_PID_A) and B (waited for: its
# qemu's status in SOFTROCE_RC_B), their NICs joined by a QEMU stream netdev over a Unix socket
# (OUTDIR/wire.sock, A listening). Not over TCP: there a frame sent right after another waits
# for the host's delayed ACK of the first (Nagle), which made every RDMA round trip across the
# guests about 22 ms where a UDP ping-pong took 0.2 ms. Not over UDP either: the frames a busy
# guest cannot take in time are dropped, and 1 MiB RDMA reads then stalled for good.
softroce_pair() {
  local kver=$1 initrd=$2 out=$3 name_a=$4 script_a=$5 name_b=$6 script_b=$7 limit=$8 i
  local wire=$out/wire.sock
  softroce_boot "$kver" "$initrd" "$out" "$name_a" "$script_a" "$limit" \
    -netdev "stream,id=n0,server=on,addr.type=unix,addr.path=$wire" \
    -device virtio-net-pci,netdev=n0,mac=52:54:00:5e:18:01 &
  SOFTROCE_PID_A=$!
  for ((i = 0; i < 100; i++)); do [[ -S $wire ]] && break; sleep 0.1; done
  softroce_boot "$kver" "$initrd" "$out" "$name_b" "$script_b" "$limit" \
    -netdev "stream,id=n0,server=off,addr.type=unix,addr.path=$wire" \
    -device virtio-net-pci,netdev=n0,mac=52:54:00:5e:18:02
  SOFTROCE_RC_B=$?
}
