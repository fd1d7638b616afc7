// Runs the registered gpu.* benchmarks through the core runner on the stand-in, at small
// sizes and a few samples (the tests assert function, never speed), and marks the result so
// that nothing in it reads as a GPU measurement.
#pragma once

#include <string>

#include "core/result.hpp"

namespace gpubench::tests::standin {

// The gpu suite's benchmarks whose id matches `filter`, run with 32 and 64 KiB copies, at
// most 3 samples a point. A machine must be installed.
core::result_file run_gpu_suite(const std::string& filter);

// The result of a run on the stand-in is a test report, not a measurement: every case says
// so in its context (`standin`), keeps what was checked (sizes, samples, data checks passed)
// and loses its points, so no time the stand-in took is read as bandwidth or latency.
void mark_as_functional_test(core::result_file& file);

}  // namespace gpubench::tests::standin
