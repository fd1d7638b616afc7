// The MPI runtime of a build without MPI: every use says why.
#include "core/errors.hpp"
#include "transports/collective/runtimes.hpp"

namespace gpubench::coll {

namespace {

constexpr const char* reason =
    "built without MPI: no MPI C++ library at configure time "
    "(Debian: libopenmpi-dev)";

class mpi_none final : public mpi_runtime {
 public:
  std::optional<std::string> unavailable() const override { return reason; }
  std::string library_version() const override { return ""; }
  launch_layout layout() override { throw core::skip_case(reason); }
  scaling_row run_case(core::case_state&, const case_request&, nccl_runtime&) override {
    throw core::skip_case(reason);
  }
};

}  // namespace

std::unique_ptr<mpi_runtime> make_mpi_runtime() {
  return std::make_unique<mpi_none>();
}

}  // namespace gpubench::coll
