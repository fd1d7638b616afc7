// The GPU backend of a build without CUDA: every GPU case is skipped with this reason.
#include <stdexcept>

#include "benchmarks/gpu/gpu_backend.hpp"

namespace gpubench::benchmarks::gpu {

namespace {

constexpr const char* reason = "built without CUDA: no CUDA compiler at configure time";

class none_backend final : public backend {
 public:
  core::requirement_status status() const override {
    return core::requirement_status::missing(reason);
  }
  int device_count() const override { return 0; }
  device_facts device(int) const override { throw std::logic_error(reason); }
  pair_facts pair(int, int) const override { throw std::logic_error(reason); }
  nlohmann::json software() const override { return nlohmann::json::object(); }
  std::vector<std::string> notes() const override { return {reason}; }
  std::unique_ptr<copy_job> host_copy(const host_copy_request&) override { return fail(); }
  std::unique_ptr<copy_job> p2p_copy(const p2p_copy_request&) override { return fail(); }
  std::unique_ptr<copy_job> latency(const latency_request&) override { return fail(); }

 private:
  static std::unique_ptr<copy_job> fail() { throw std::logic_error(reason); }
};

}  // namespace

std::unique_ptr<backend> make_backend() {
  return std::make_unique<none_backend>();
}

}  // namespace gpubench::benchmarks::gpu
