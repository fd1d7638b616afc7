// The MPI runtime of a build without MPI: every use says why; a launch has no stop agreement.
#include <cstdlib>

#include "core/errors.hpp"
#include "transports/mpi/mpi_runtime.hpp"
#include "transports/mpi/stop_agreement.hpp"

namespace gpubench::transports::mpi {

namespace {

constexpr const char* reason =
    "built without MPI: no MPI C++ library at configure time "
    "(Debian: libopenmpi-dev)";

class mpi_none final : public runtime {
 public:
  std::optional<std::string> unavailable() const override { return reason; }
  std::string library_version() const override { return ""; }
  launch_layout layout() override { throw core::skip_case(reason); }
  void run_case(int, double, const std::string&, const case_hooks&, const member_work&) override {
    throw core::skip_case(reason);
  }
};

}  // namespace

std::unique_ptr<runtime> make_runtime() {
  return std::make_unique<mpi_none>();
}

std::unique_ptr<core::launch_stop> open_stop_agreement(const std::atomic<bool>&,
                                                       std::function<void()>) {
  return nullptr;
}

void end_job(int code) {
  std::_Exit(code);
}

}  // namespace gpubench::transports::mpi
