// What NCCL itself chose to carry traffic between nodes, read from its INIT/NET debug lines
// (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET, NCCL_DEBUG_FILE), and whether that agrees
// with the transport label gpubench derived from the environment.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpubench::benchmarks::collectives {

struct nccl_net_choice {
  std::string network;   // NCCL's name: "IB", "Socket", or a plugin's ("AWS Libfabric")
  std::string label;     // rdma (IB, RoCE), tcp (Socket), or auto (a plugin)
  std::string devices;   // what "NET/<name> : Using ..." listed, e.g. "[0]mlx5_0:1/RoCE"
  std::string evidence;  // the debug line(s) that said so
};

// From the text of an NCCL debug log: the last "Using network <name>" decides, the "NET/IB :
// Using" or "NET/Socket : Using" line gives the devices (and decides when the other line is
// absent). Nothing when the log names no network (a one-node communicator, or no INFO lines).
std::optional<nccl_net_choice> parse_nccl_net(std::string_view log);

// Nothing when `label` (tcp, rdma, auto, intra-node) and NCCL's choice agree, or a sentence
// saying how they differ. Only tcp and rdma claim something that can disagree.
std::optional<std::string> nccl_label_disagreement(const std::string& label,
                                                   const nccl_net_choice& chose);

}  // namespace gpubench::benchmarks::collectives
