// The machine a process of the stand-in gpubench (standin_gpubench, run by the tests under
// mpirun) is: read from its environment at its first CUDA call, as a GPU host's driver
// answers for the whole process. GPUBENCH_STANDIN_GPUS=N physical GPUs (unset: the process
// has no stand-in machine until a test installs one); CUDA_VISIBLE_DEVICES renumbers them as
// CUDA does; GPUBENCH_STANDIN_COMPUTE_MODE=exclusive_process with GPUBENCH_STANDIN_NODE_DIR
// (the lock files of the node's contexts) makes each GPU refuse a second process.
#pragma once

#include <optional>

#include "machine_config.hpp"

namespace gpubench::tests::standin {

// The configuration the environment describes; nothing when GPUBENCH_STANDIN_GPUS is unset.
// Throws std::invalid_argument naming a bad value.
std::optional<machine_config> config_from_environment();

class runtime;
// The runtime of that configuration, made once and kept for the life of the process (its
// threads may be in a collective that never ends; the process's exit ends them).
runtime* environment_runtime();

}  // namespace gpubench::tests::standin
