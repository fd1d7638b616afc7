#include "transports/collective_backend.hpp"

namespace gpubench::transports {

std::string to_string(dtype t) {
  switch (t) {
    case dtype::float32:
      return "float32";
    case dtype::float64:
      return "float64";
    case dtype::int32:
      return "int32";
    case dtype::int64:
      return "int64";
  }
  return "unknown";
}

std::size_t dtype_size(dtype t) {
  return t == dtype::float32 || t == dtype::int32 ? 4 : 8;
}

std::string nccl_call_name(collective_call c) {
  switch (c) {
    case collective_call::allreduce_sum:
      return "ncclAllReduce";
  }
  return "unknown";
}

std::string mpi_call_name(collective_call c) {
  switch (c) {
    case collective_call::allreduce_sum:
      return "MPI_Allreduce";
  }
  return "unknown";
}

}  // namespace gpubench::transports
