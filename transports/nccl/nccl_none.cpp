// The NCCL runtime of a build without CUDA or NCCL: every use says why.
#include "core/errors.hpp"
#include "transports/nccl/nccl_runtime.hpp"

namespace gpubench::transports::nccl {

namespace {

constexpr const char* reason = "built without NCCL: needs CUDA and nccl.h at configure time";

class nccl_none final : public runtime {
 public:
  std::optional<std::string> unavailable() override { return reason; }
  int local_gpus(std::string& why) override {
    why = reason;
    return 0;
  }
  nlohmann::json describe() override { return {{"available", false}, {"reason", reason}}; }
  std::unique_ptr<collective_backend> rank_backend(process_group&, int, dtype, double) override {
    throw core::skip_case(reason);
  }
  std::string debug_log() override { return ""; }
  std::string keep_debug_log() override { return ""; }
  std::unique_ptr<collective_backend> local_backend(dtype, double) override {
    throw core::skip_case(reason);
  }
};

}  // namespace

std::unique_ptr<runtime> make_runtime() {
  return std::make_unique<nccl_none>();
}

}  // namespace gpubench::transports::nccl
