// The GPU family's kernels, the very file nvcc builds, compiled as C++ against the stand-in:
// its cuda_runtime.h supplies the device built-ins and GPUBENCH_LAUNCH.
#include "benchmarks/gpu/cuda/kernels.cu"
