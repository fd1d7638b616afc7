// What NCCL itself chose to carry traffic between nodes, read from its INIT/NET debug lines
// (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET, NCCL_DEBUG_FILE), and whether that agrees
// with the transport label gpubench derived from the environment.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// NCCL's own words for a failure: the text of its WARN lines ("host:pid:tid [0] file.cc:123 NCCL
// WARN <text>" gives "<text>"), the last `most` of them, oldest first.
std::vector<std::string> nccl_warnings(std::string_view log, std::size_t most = 6);

// The reason a failed NCCL case records: what failed ("ncclCommInitRank: unhandled system
// error"), then what NCCL said in its WARN lines, then where its whole debug log was kept
// (`kept`; empty when gpubench did not capture it: the user's NCCL_DEBUG settings apply).
std::string explain_nccl_failure(const std::string& what, std::string_view log,
                                 const std::string& kept);

}  // namespace gpubench::benchmarks::collectives
