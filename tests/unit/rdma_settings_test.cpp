// The RDMA case parameters a server receives from a client: round trip and refusal of bad
// or hostile values.
#include <gtest/gtest.h>

#include "transports/rdma/rdma_settings.hpp"

namespace rdma = gpubench::transports::rdma;

namespace {

rdma::rdma_settings sample() {
  rdma::rdma_settings s;
  s.test = rdma::test_kind::bandwidth;
  s.op = rdma::rdma_op::write;
  s.memory = rdma::memory_kind::host;
  s.max_bytes = 8u << 20;
  s.tx_depth = 64;
  s.cq_mod = 32;
  s.inline_size = 0;
  s.client = {"mlx5_0", 1, 3, 2, 4};
  s.server = {"vmw_pvrdma0", 2, std::nullopt, 0, 0};
  s.relaxed_ordering = false;
  s.completion = rdma::completion_mode::event;
  s.tclass = 106;
  s.sl = 3;
  return s;
}

}  // namespace

TEST(RdmaSettings, RoundTrip) {
  const auto d = rdma::settings_from(rdma::to_params(sample()));
  EXPECT_EQ(d.test, rdma::test_kind::bandwidth);
  EXPECT_EQ(d.op, rdma::rdma_op::write);
  EXPECT_EQ(d.max_bytes, 8u << 20);
  EXPECT_EQ(d.tx_depth, 64u);
  EXPECT_EQ(d.cq_mod, 32u);
  EXPECT_EQ(d.inline_size, 0u);
  EXPECT_EQ(d.client.device, "mlx5_0");
  EXPECT_EQ(d.client.gid_index, 3);
  EXPECT_EQ(d.server.device, "vmw_pvrdma0");
  EXPECT_EQ(d.server.port, 2);
  EXPECT_FALSE(d.server.gid_index);
  EXPECT_EQ(d.client.gpu, 2);
  EXPECT_EQ(d.server.gpu, 0);
  EXPECT_EQ(d.completion, rdma::completion_mode::event);
  EXPECT_EQ(d.tclass, 106);
  EXPECT_EQ(d.sl, 3);
  EXPECT_EQ(d.client.pkey_index, 4);
  EXPECT_EQ(d.server.pkey_index, 0);
  EXPECT_FALSE(d.relaxed_ordering);
}

TEST(RdmaSettings, RequestsWithoutTheNewKeysKeepTheOldBehaviour) {
  // A client from before --pkey-index and --rdma-relaxed-ordering sends neither key.
  auto p = rdma::to_params(sample());
  p.erase("pkey_index");
  p.erase("relaxed_ordering");
  const auto d = rdma::settings_from(p);
  EXPECT_EQ(d.client.pkey_index, 0);
  EXPECT_TRUE(d.relaxed_ordering);
  // Index 0 is not sent at all.
  EXPECT_FALSE(rdma::to_params(sample()).contains("peer_pkey_index"));
}

TEST(RdmaSettings, RefusesBadValues) {
  auto refuses = [](const char* key, nlohmann::json value) {
    auto p = rdma::to_params(sample());
    p[key] = std::move(value);
    try {
      rdma::settings_from(p);
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("bad RDMA case parameters"), std::string::npos);
      return;
    }
    ADD_FAILURE() << key << " accepted";
  };
  refuses("op", "atomic");
  refuses("op", 2);
  refuses("test", "throughput");
  refuses("memory", "gpu");
  refuses("max_bytes", 0);
  refuses("max_bytes", 1ll << 40);  // a client asking the server to pin a terabyte
  refuses("max_bytes", "8M");
  refuses("tx_depth", 0);
  refuses("tx_depth", 1 << 20);
  refuses("cq_mod", -1);
  refuses("inline", 100000);
  refuses("peer_device", "../../etc/passwd");
  refuses("peer_device", std::string(100, 'a'));
  refuses("peer_port", 0);
  refuses("gid_index", 1.5);
  refuses("gpu", -1);
  refuses("peer_gpu", 4096);
  refuses("completion", "sleep");
  refuses("tclass", 256);
  refuses("pkey_index", 65536);
  refuses("peer_pkey_index", -1);
  refuses("peer_pkey_index", "0");
  refuses("relaxed_ordering", "on");
  refuses("relaxed_ordering", 1);
  refuses("sl", 16);
  auto missing = rdma::to_params(sample());
  missing.erase("op");
  EXPECT_THROW(rdma::settings_from(missing), std::runtime_error);
  EXPECT_THROW(rdma::settings_from(nlohmann::json::array()), std::runtime_error);
}
