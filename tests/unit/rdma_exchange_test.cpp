// The RDMA out-of-band messages: round trips, fixed byte order, and refusal of malformed
// and hostile input.
#include <gtest/gtest.h>

#include <random>

#include "transports/rdma/exchange.hpp"

namespace rdma = gpubench::transports::rdma;

namespace {

rdma::endpoint_info sample_endpoint() {
  rdma::endpoint_info e;
  e.lid = 0x12;
  e.qpn = 0xabcdef;
  e.psn = 0x123456;
  e.rkey = 0xdeadbeef;
  e.addr = 0x00007f0012345000ull;
  e.length = 8u << 20;
  e.has_gid = true;
  e.gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 18, 0, 2};
  e.gid_kind = rdma::gid_type::roce_v2;
  e.mtu = 3;
  e.out_reads = 16;
  e.link = rdma::link_layer::ethernet;
  return e;
}

std::vector<std::byte> bytes_of(std::initializer_list<int> v) {
  std::vector<std::byte> out;
  for (int b : v)
    out.push_back(static_cast<std::byte>(b));
  return out;
}

}  // namespace

TEST(RdmaExchange, EndpointRoundTrips) {
  const auto e = sample_endpoint();
  const auto d = rdma::decode_endpoint_info(rdma::encode(e));
  EXPECT_EQ(d.lid, e.lid);
  EXPECT_EQ(d.qpn, e.qpn);
  EXPECT_EQ(d.psn, e.psn);
  EXPECT_EQ(d.rkey, e.rkey);
  EXPECT_EQ(d.addr, e.addr);
  EXPECT_EQ(d.length, e.length);
  EXPECT_TRUE(d.has_gid);
  EXPECT_EQ(d.gid, e.gid);
  EXPECT_EQ(d.gid_kind, rdma::gid_type::roce_v2);
  EXPECT_EQ(d.mtu, e.mtu);
  EXPECT_EQ(d.out_reads, e.out_reads);
  EXPECT_EQ(d.link, e.link);
}

TEST(RdmaExchange, EncodingIsBigEndianWithHeader) {
  const auto m = rdma::encode(sample_endpoint());
  ASSERT_GE(m.size(), 12u);
  // "GBRD", version 2, type 2 (endpoint), then LID 0x0012, then QPN 0x00abcdef.
  EXPECT_EQ(std::vector<std::byte>(m.begin(), m.begin() + 12),
            bytes_of({'G', 'B', 'R', 'D', 2, 2, 0x00, 0x12, 0x00, 0xab, 0xcd, 0xef}));
}

TEST(RdmaExchange, RejectsEveryTruncation) {
  const auto m = rdma::encode(sample_endpoint());
  for (std::size_t n = 0; n < m.size(); ++n)
    EXPECT_THROW(rdma::decode_endpoint_info(std::span(m.data(), n)), rdma::wire_error) << n;
}

TEST(RdmaExchange, RejectsTrailingBytesAndOversize) {
  auto m = rdma::encode(sample_endpoint());
  m.push_back(std::byte{0});
  EXPECT_THROW(rdma::decode_endpoint_info(m), rdma::wire_error);
  std::vector<std::byte> huge(rdma::max_message_bytes + 1, std::byte{0x41});
  EXPECT_THROW(rdma::decode_endpoint_info(huge), rdma::wire_error);
}

TEST(RdmaExchange, RejectsWrongMagicVersionAndType) {
  auto m = rdma::encode(sample_endpoint());
  auto bad_magic = m;
  bad_magic[0] = std::byte{'X'};
  EXPECT_THROW(rdma::decode_endpoint_info(bad_magic), rdma::wire_error);
  auto bad_version = m;
  bad_version[4] = std::byte{1};  // version 1 had no GID type
  try {
    rdma::decode_endpoint_info(bad_version);
    FAIL() << "version 1 accepted";
  } catch (const rdma::wire_error& e) {
    EXPECT_NE(std::string(e.what()).find("same gpubench version"), std::string::npos) << e.what();
  }
  auto bad_type = m;
  bad_type[5] = std::byte{3};
  EXPECT_THROW(rdma::decode_endpoint_info(bad_type), rdma::wire_error);
}

TEST(RdmaExchange, RejectsOutOfRangeFields) {
  auto check = [](auto mutate, const char* what) {
    auto e = sample_endpoint();
    mutate(e);
    EXPECT_THROW(rdma::decode_endpoint_info(rdma::encode(e)), rdma::wire_error) << what;
  };
  check([](auto& e) { e.qpn = 0x1000000; }, "25-bit QPN");
  check([](auto& e) { e.qpn = 0; }, "QPN 0");
  check([](auto& e) { e.psn = 0x1000000; }, "25-bit PSN");
  check([](auto& e) { e.mtu = 0; }, "MTU 0");
  check([](auto& e) { e.mtu = 6; }, "MTU 6");
  check([](auto& e) { e.out_reads = 0; }, "no reads");
  check([](auto& e) { e.length = 0; }, "empty buffer");
  check([](auto& e) { e.length = (1ull << 30) + 1; }, "buffer over 1 GiB");
  check([](auto& e) { e.addr = UINT64_MAX - 10; }, "wrapping address");
  check([](auto& e) { e.gid = {}; }, "zero GID flagged present");
  check([](auto& e) { e.has_gid = false; }, "RoCE without GID");
  check([](auto& e) { e.gid_kind = rdma::gid_type::ib; }, "RoCE with an IB GID type");
  check(
      [](auto& e) {
        e.link = rdma::link_layer::infiniband;
        e.gid_kind = rdma::gid_type::roce_v1;
      },
      "InfiniBand with a RoCE GID type");
  check(
      [](auto& e) {
        e.link = rdma::link_layer::infiniband;
        e.has_gid = false;
        e.lid = 0;
      },
      "InfiniBand LID 0 without GID");
}

// Under rdma_cm the message only carries the buffer: rdma_cm resolved the address and the
// route, and a RoCE side has no GID to send before it is connected (issue 14).
TEST(RdmaExchange, RdmaCmDoesNotDemandAGid) {
  auto roce = sample_endpoint();
  roce.has_gid = false;
  roce.gid = {};
  const auto m = rdma::encode(roce);
  EXPECT_THROW(rdma::decode_endpoint_info(m), rdma::wire_error);
  EXPECT_THROW(rdma::decode_endpoint_info(m, rdma::peer_addressing::exchanged), rdma::wire_error);
  const auto d = rdma::decode_endpoint_info(m, rdma::peer_addressing::rdma_cm);
  EXPECT_FALSE(d.has_gid);
  EXPECT_EQ(d.rkey, roce.rkey);
  EXPECT_EQ(d.addr, roce.addr);
  EXPECT_EQ(d.length, roce.length);

  auto ib = roce;
  ib.link = rdma::link_layer::infiniband;
  ib.gid_kind = rdma::gid_type::ib;
  ib.lid = 0;
  EXPECT_THROW(rdma::decode_endpoint_info(rdma::encode(ib)), rdma::wire_error);
  EXPECT_NO_THROW(rdma::decode_endpoint_info(rdma::encode(ib), rdma::peer_addressing::rdma_cm));

  // The other checks still hold under rdma_cm.
  auto bad = roce;
  bad.length = 0;
  EXPECT_THROW(rdma::decode_endpoint_info(rdma::encode(bad), rdma::peer_addressing::rdma_cm),
               rdma::wire_error);
  bad = roce;
  bad.has_gid = true;  // flagged present but all zero
  EXPECT_THROW(rdma::decode_endpoint_info(rdma::encode(bad), rdma::peer_addressing::rdma_cm),
               rdma::wire_error);
}

TEST(RdmaExchange, GidTypeTravelsAndIsRangeChecked) {
  auto e = sample_endpoint();
  e.gid_kind = rdma::gid_type::roce_v1;
  EXPECT_EQ(rdma::decode_endpoint_info(rdma::encode(e)).gid_kind, rdma::gid_type::roce_v1);
  auto m = rdma::encode(e);
  // Layout after the 6-byte header: LID 2, QPN 4, PSN 4, rkey 4, addr 8, length 8, flag 1,
  // GID 16, then the GID type.
  const std::size_t type_at = 6 + 2 + 4 + 4 + 4 + 8 + 8 + 1 + 16;
  ASSERT_EQ(m[type_at], std::byte{1});
  m[type_at] = std::byte{3};
  EXPECT_THROW(rdma::decode_endpoint_info(m), rdma::wire_error);
}

TEST(RdmaExchange, RejectsBadLinkLayerByte) {
  auto m = rdma::encode(sample_endpoint());
  m.back() = std::byte{9};
  EXPECT_THROW(rdma::decode_endpoint_info(m), rdma::wire_error);
}

TEST(RdmaExchange, RandomBytesNeverCrashTheDecoders) {
  std::mt19937 gen(12345);
  const auto valid = rdma::encode(sample_endpoint());
  for (int i = 0; i < 2000; ++i) {
    auto m = valid;
    // Flip a few bytes of a valid message, or make up a random one.
    if (i % 2 == 0) {
      for (int k = 0; k < 3; ++k)
        m[gen() % m.size()] = static_cast<std::byte>(gen() & 0xff);
    } else {
      m.resize(gen() % 64);
      for (auto& b : m)
        b = static_cast<std::byte>(gen() & 0xff);
    }
    try {
      const auto e = rdma::decode_endpoint_info(m);
      EXPECT_LE(e.qpn, 0xffffffu);
      EXPECT_GE(e.mtu, 1);
      EXPECT_LE(e.mtu, 5);
    } catch (const rdma::wire_error&) {
    }
  }
}
