// The rdma_cm connector on a host without an rdma_cm device: a clean skip naming the reason,
// before anything is sent to the peer.
#include <gtest/gtest.h>

#include <filesystem>

#if GPUBENCH_TEST_VERBS
#include "core/errors.hpp"
#include "transports/rdma/cm_connector.hpp"

namespace rdma = gpubench::transports::rdma;

namespace {

class recording_channel final : public gpubench::transports::oob_channel {
 public:
  void send_blob(std::span<const std::byte>) override { ++sent; }
  std::vector<std::byte> receive_blob(std::chrono::milliseconds) override {
    throw std::runtime_error("the test peer sends nothing");
  }
  std::string peer_name() const override { return "198.18.0.2:18515"; }
  std::string local_address() const override { return "198.18.0.1"; }
  std::string peer_address() const override { return "198.18.0.2"; }
  int sent = 0;
};

}  // namespace

TEST(RdmaCmConnector, SkipsWithoutAnRdmaCmDevice) {
  if (std::filesystem::exists("/dev/infiniband/rdma_cm"))
    GTEST_SKIP() << "this host has an rdma_cm device: the connector would really listen";
  for (const auto role : {rdma::cm_role::passive, rdma::cm_role::active}) {
    recording_channel oob;
    gpubench::transports::endpoint_setup setup;
    setup.oob = &oob;
    setup.io_timeout = std::chrono::milliseconds(1000);
    try {
      rdma::make_cm_connector(role, setup);
      ADD_FAILURE() << "a connector was made without an rdma_cm device";
    } catch (const gpubench::core::skip_case& e) {
      EXPECT_NE(std::string(e.what()).find("--rdma-cm on"), std::string::npos) << e.what();
    }
    EXPECT_EQ(oob.sent, 0) << "a port was announced for a listener that does not exist";
  }
}

TEST(RdmaCmConnector, OffMeansNoConnector) {
  recording_channel oob;
  gpubench::transports::endpoint_setup setup;
  setup.oob = &oob;
  rdma::rdma_settings s;
  EXPECT_EQ(rdma::connector_for(s, setup, rdma::cm_role::active), nullptr);
  EXPECT_EQ(oob.sent, 0);
}
#else
TEST(RdmaCmConnector, SkipsWithoutAnRdmaCmDevice) {
  GTEST_SKIP() << "built without libibverbs: there is no rdma_cm connector to test";
}
#endif
