// The parameters of one RDMA case as both endpoints receive them (the client's case request
// to the server's passive side): validated, since the server must treat them as hostile.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "transports/rdma/exchange.hpp"
#include "transports/rdma/params.hpp"

namespace gpubench::transports::rdma {

// Which device, port and GID one side uses.
struct side_settings {
  std::optional<std::string> device;
  int port = 1;
  std::optional<int> gid_index;
  int gpu = 0;         // the CUDA device whose memory is registered, with memory cuda
  int pkey_index = 0;  // the QP's P_Key index (partitioned InfiniBand fabrics)
};

struct rdma_settings {
  test_kind test = test_kind::latency;
  rdma_op op = rdma_op::send;
  memory_kind memory = memory_kind::host;
  std::uint64_t max_bytes = 0;  // largest message of the case: both buffers are this big
  std::uint32_t tx_depth = default_tx_depth;
  std::uint32_t cq_mod = default_cq_mod;
  std::optional<std::uint32_t> inline_size;
  bool rdma_cm = false;  // connect the QPs through rdma_cm (--rdma-cm on)
  completion_mode completion = completion_mode::poll;  // both sides wait alike
  std::uint8_t tclass = 0;       // GRH traffic class of both sides' address handles
  std::uint8_t sl = 0;           // service level of both sides' address handles
  bool relaxed_ordering = true;  // both sides' memory regions ask for PCIe relaxed ordering
  side_settings client;          // params device, port, gid_index, gpu, pkey_index
  side_settings server;  // params peer_device, peer_port, peer_gid_index, peer_gpu, peer_pkey_index
};

// The params object the client sends: the case's params (device, op, memory, ...) plus the
// test, the largest size and the window settings.
nlohmann::json to_params(const rdma_settings& s);
// Throws std::runtime_error("bad RDMA case parameters: ...") on a missing, mistyped or
// out-of-range value (message size over 1 GiB, depth over 16384, a device name that is not
// a plain identifier, ...).
rdma_settings settings_from(const nlohmann::json& params);

}  // namespace gpubench::transports::rdma
