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
    case collective_call::allgather:
      return "ncclAllGather";
    case collective_call::reduce_scatter_sum:
      return "ncclReduceScatter";
    case collective_call::alltoall:
      return "ncclSend/ncclRecv to every rank (all-to-all)";
    case collective_call::broadcast:
      return "ncclBroadcast";
    case collective_call::sendrecv:
      return "ncclSend/ncclRecv (ring shift)";
  }
  return "unknown";
}

std::string mpi_call_name(collective_call c) {
  switch (c) {
    case collective_call::allreduce_sum:
      return "MPI_Allreduce";
    case collective_call::allgather:
      return "MPI_Allgather";
    case collective_call::reduce_scatter_sum:
      return "MPI_Reduce_scatter_block";
    case collective_call::alltoall:
      return "MPI_Alltoall";
    case collective_call::broadcast:
      return "MPI_Bcast";
    case collective_call::sendrecv:
      return "MPI_Sendrecv (ring shift)";
  }
  return "unknown";
}

}  // namespace gpubench::transports
