// The NCCL runtime of a build without CUDA or NCCL: every use says why.
#include "core/errors.hpp"
#include "transports/collective/runtimes.hpp"

namespace gpubench::coll {

namespace {

constexpr const char* reason = "built without NCCL: needs CUDA and nccl.h at configure time";

class nccl_none final : public nccl_runtime {
 public:
  std::optional<std::string> unavailable() override { return reason; }
  int local_gpus(std::string& why) override {
    why = reason;
    return 0;
  }
  nlohmann::json describe() override { return {{"available", false}, {"reason", reason}}; }
  std::unique_ptr<allreduce_backend> rank_backend(process_group&, int, int, dtype,
                                                  double) override {
    throw core::skip_case(reason);
  }
  std::string debug_log() override { return ""; }
  std::unique_ptr<allreduce_backend> local_backend(dtype, double) override {
    throw core::skip_case(reason);
  }
};

}  // namespace

std::unique_ptr<nccl_runtime> make_nccl_runtime() {
  return std::make_unique<nccl_none>();
}

}  // namespace gpubench::coll
