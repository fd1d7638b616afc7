#!/usr/bin/env bash
# Installs what gpubench needs on Debian/Ubuntu (as root, or with sudo): to build and run it
# (scripts/run.sh), or with --tests also what its tests and checks use (scripts/test.sh).
# CUDA and NCCL are not Debian packages: when present (CUDA_HOME, or the toolkit's usual
# prefix) they are used, otherwise the build leaves the GPU parts out and says so.
# Usage: scripts/setup.sh [--tests]
set -euo pipefail

# Building gpubench (OpenSSL: the control channel's authentication), running the interconnect
# suite (mpirun for the MPI collectives) and writing its reports (cairo + pango for the PDF).
packages=(
  build-essential cmake ninja-build pkg-config git
  libfmt-dev libcli11-dev nlohmann-json3-dev libhwloc-dev
  libibverbs-dev librdmacm-dev ibverbs-providers rdma-core
  libopenmpi-dev openmpi-bin
  libcairo2-dev libpango1.0-dev
  libssl-dev
  # the results store (docs/history.md): SQLite, and PostgreSQL's client library
  libsqlite3-dev libpq-dev
  iproute2 procps
)
# The tests, the micro-benchmarks and the side-by-side scripts.
test_packages=(
  libgtest-dev libgmock-dev libbenchmark-dev
  poppler-utils chromium
  python3 python3-jsonschema
  # tests/integration/metrics_*_test.sh read --metrics with Prometheus' own parsers and with
  # node_exporter, which each test starts on a loopback port of its own (Debian's package also
  # enables its service where systemd runs)
  python3-prometheus-client prometheus-node-exporter
  iperf3 jq
  # nm and strings: the release binary holds no stand-in (tests/standin/release_symbols_test.sh)
  binutils
  # the store's tests: a throwaway PostgreSQL server, and both databases' command-line clients
  postgresql postgresql-client sqlite3
  # the Slurm tests (tests/integration/slurm_launch_test.sh) start their own cluster
  slurmctld slurmd slurm-client munge
  sockperf qperf
  # scripts/fuzz.sh: clang with libFuzzer and the sanitizer runtimes
  clang libclang-rt-dev
  # soft-RoCE tests (tests/softroce): Debian's kernel with rdma_rxe booted under QEMU, and
  # perftest for scripts/perftest-vs-gpubench.sh, dropbear's ssh server and client for the
  # mpirun across the two guests (binaries only: no service starts on the host)
  qemu-system-x86 linux-image-amd64 busybox-static kmod cpio
  perftest ibverbs-utils rdmacm-utils dropbear-bin
)
case "${1:-}" in
  "") ;;
  --tests) packages+=("${test_packages[@]}") ;;
  *) echo "usage: scripts/setup.sh [--tests]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
