// Which GPU does what in a GPU<->GPU copy: who issues it, and on whose stream each buffer is
// filled and checked. Plain functions so the CUDA jobs and the unit tests share them.
#pragma once

#include <algorithm>
#include <vector>

namespace gpubench::benchmarks::gpu {

// One direction of a pair, data from `from` to `to`.
struct flow_plan {
  int exec = 0;         // issues the copy: the reader pulls, else the writer pushes
  int fill_src_on = 0;  // the source buffer lives on `from` and is filled by `from`
  int fill_dst_on = 0;  // the destination lives on `to` and is filled and checked by `to`
  int check_on = 0;
};

// A buffer is touched only by its own GPU outside the timed copies: with peer access off
// (the staged cases), a kernel on one GPU cannot address the other's memory at all, and the
// illegal address would be a sticky error that fails every later case of the process.
constexpr flow_plan plan_flow(int from, int to, bool read) {
  return flow_plan{read ? to : from, from, to, to};
}

// The devices a job launches kernels on, each once: kernels are loaded there and nowhere
// else, so a busy or broken GPU elsewhere (or one in EXCLUSIVE_PROCESS mode that another
// process holds) does not fail this job, and no context is opened on it.
inline std::vector<int> job_devices(std::vector<int> devices) {
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  return devices;
}

}  // namespace gpubench::benchmarks::gpu
