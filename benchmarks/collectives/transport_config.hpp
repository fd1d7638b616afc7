// What carries an allreduce's traffic, read from the configuration the libraries obey: Open
// MPI's pml/btl or UCX variables, NCCL's NCCL_NET / NCCL_IB_* / NCCL_SOCKET_IFNAME. Gives a
// short label for the `transport` parameter ("shm", "tcp", "rdma", "auto") and the raw
// settings for the case's context, so "4 nodes over TCP" sits beside "4 nodes over RDMA".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "transports/mpi/launch_env.hpp"

namespace gpubench::benchmarks::collectives {

using transports::mpi::env_lookup;

struct transport_choice {
  std::string label;                    // shm | tcp | rdma | ucx | intra-node | auto
  std::string basis;                    // why: "OMPI_MCA_btl=self,tcp", "default: no RDMA device"
  nlohmann::json settings;              // the variables that decided it, as set
  std::vector<std::string> interfaces;  // interface selectors (names, prefixes or CIDRs)
};

// Open MPI (ob1 with btls, or the ucx pml). `rdma_devices_present`: /sys/class/infiniband
// has entries, so the default selection may pick an RDMA path.
transport_choice mpi_transport(const env_lookup& env, int nodes, bool rdma_devices_present);

// NCCL between nodes; within one node NCCL uses NVLink/PCIe P2P or shared memory.
transport_choice nccl_transport(const env_lookup& env, int nodes, bool rdma_devices_present);

// Splits "a,b,c" (empty items dropped).
std::vector<std::string> split_list(const std::string& text);

}  // namespace gpubench::benchmarks::collectives
