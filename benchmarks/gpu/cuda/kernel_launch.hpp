// How kernels.cu launches a kernel: GPUBENCH_LAUNCH(kernel, grid, block, shared, stream,
// args...) is the triple-chevron launch under nvcc. The tests compile kernels.cu as C++
// against the CPU stand-in of the CUDA runtime (tests/standin), whose cuda_runtime.h defines
// it to queue the kernel's threads on the stream's worker thread instead.
#pragma once

#include <cuda_runtime.h>

#if defined(__CUDACC__)
#define GPUBENCH_LAUNCH(kernel, grid, block, shared, stream, ...) \
  kernel<<<grid, block, shared, stream>>>(__VA_ARGS__)
#elif !defined(GPUBENCH_LAUNCH)
#error "kernels.cu compiled as C++ needs the cuda_runtime.h of the CPU stand-in (tests/standin)"
#endif
