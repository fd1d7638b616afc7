#!/usr/bin/env bash
# Fetches Debian bookworm's CUDA 11.8 toolkit (non-free) and the GCC 11 it needs as nvcc's
# host compiler into a private prefix, without installing anything system-wide: the .debs
# are downloaded with a sources list used only for this and unpacked with dpkg -x. A system
# install would put an old nvcc in /usr/bin, where every other build would find it.
#   scripts/cuda11-toolkit.sh [PREFIX]      (default: build-cuda11/toolkit)
# Then: cmake --preset cuda11 && cmake --build --preset cuda11
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
prefix="${1:-$here/build-cuda11/toolkit}"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
root="$prefix/root"
stamp="$prefix/.complete"
if [[ -f "$stamp" ]]; then
  echo "CUDA 11.8 toolkit already in $root"
  exit 0
fi

# nvcc, ptxas and cicc; the headers and libcudart_static; libnvvm for cicc; GCC 11 (the
# newest host compiler nvcc 11.8 accepts) with what its binaries load.
packages=(nvidia-cuda-toolkit nvidia-cuda-dev libnvvm4 libcudart11.0
          gcc-11 g++-11 cpp-11 gcc-11-base libgcc-11-dev libstdc++-11-dev libasan6 libtsan0
          libisl23 libmpc3 libmpfr6)

apt_dir="$prefix/apt"
debs="$prefix/debs"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$debs"
# The machine's own Debian mirror when it names one (a local mirror or proxy), else Debian's.
mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
echo "deb ${mirror:-http://deb.debian.org/debian} bookworm main non-free" >"$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=-"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
          -o "APT::Get::List-Cleanup=0" -o "Debug::NoLocking=1"
          -o "APT::Sandbox::User=root")
apt-get "${apt_opts[@]}" -qq update
(cd "$debs" && apt-get "${apt_opts[@]}" -qq download "${packages[@]}")

rm -rf "$root"
mkdir -p "$root"
for d in "$debs"/*.deb; do
  dpkg -x "$d" "$root"
done
# What the big runtime libraries of nvidia-cuda-dev (cuBLAS, cuFFT, NPP, ...) would add is
# not used: gpubench links only the CUDA runtime.
find "$root/usr/lib/x86_64-linux-gnu" -maxdepth 1 \
  \( -name 'libcublas*' -o -name 'libcufft*' -o -name 'libcusparse*' -o -name 'libcusolver*' \
     -o -name 'libnpp*' -o -name 'libcurand*' -o -name 'libnvblas*' \) -delete
rm -rf "$apt_dir" "$debs"
# Debian's nvcc.profile is a link to /etc/nvcc.profile with /usr paths: write one relative to
# nvcc itself (_HERE_), so this prefix is used wherever it is and the host's /usr is not.
bin="$root/usr/lib/nvidia-cuda-toolkit/bin"
rm -f "$bin/nvcc.profile"
cat >"$bin/nvcc.profile" <<'PROFILE'
NVVMIR_LIBRARY_DIR = $(_HERE_)/../nvvm/libdevice
PATH += $(_HERE_):$(_HERE_)/../../../bin:
LD_LIBRARY_PATH += $(_HERE_)/../../x86_64-linux-gnu:
INCLUDES += "-I$(_HERE_)/../../../include" $(_SPACE_)
LIBRARIES =+ $(_SPACE_) "-L$(_HERE_)/../../x86_64-linux-gnu/stubs" "-L$(_HERE_)/../../x86_64-linux-gnu"
PROFILE
# CMake takes the toolkit root from nvcc's TOP (bin/..) and wants nvvm/libdevice, nvlink and
# fatbinary there; Debian scatters them over /usr.
mkdir -p "$bin/../nvvm"
ln -sfn ../../include "$bin/../include"
ln -sfn ../x86_64-linux-gnu "$bin/../lib64"
ln -sfn ../libdevice "$bin/../nvvm/libdevice"
for tool in nvlink fatbinary ptxas cudafe++ bin2c; do
  ln -sf "../../../bin/$tool" "$bin/$tool"
done

# NCCL's header needs only cuda_runtime.h: the cuda11 preset compiles the NCCL code against
# this toolkit with the header and library of the NCCL at hand (NCCL_HOME, else the one
# beside /usr/local/cuda), linked from a folder of their own so no other header comes along.
nccl_home="${NCCL_HOME:-/usr/local/cuda}"
if [[ -f "$nccl_home/include/nccl.h" ]]; then
  mkdir -p "$prefix/nccl/include" "$prefix/nccl/lib"
  ln -sf "$nccl_home/include/nccl.h" "$prefix/nccl/include/nccl.h"
  for lib in "$nccl_home"/lib*/libnccl.so*; do
    [[ -e "$lib" ]] && ln -sf "$lib" "$prefix/nccl/lib/"
  done
else
  echo "no nccl.h under $nccl_home: the cuda11 build leaves NCCL out (set NCCL_HOME)" >&2
fi
"$bin/nvcc" --version | tail -n 2
touch "$stamp"
echo "CUDA 11.8 toolkit in $root"
