// RDMA options and the choices made from them: inline size (per provider), depths,
// signalling, outstanding reads, P_Key index, relaxed ordering and its fallback; and the CPU
// list parser behind NUMA binding.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "core/errors.hpp"
#include "transports/rdma/dmabuf_range.hpp"
#include "transports/rdma/numa_binding.hpp"
#include "transports/rdma/params.hpp"
#include "transports/rdma/relaxed_ordering.hpp"

namespace rdma = gpubench::transports::rdma;
using gpubench::core::usage_error;

TEST(RdmaParams, ParsesOptions) {
  gpubench::core::run_context ctx;
  auto o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.ops.size(), 3u);
  EXPECT_EQ(o.memory, rdma::memory_kind::host);
  EXPECT_EQ(o.tx_depth, 128u);
  EXPECT_EQ(o.cq_mod, 100u);
  EXPECT_FALSE(o.gid_index);
  ctx.options = {{"rdma-op", "write,read,write"},
                 {"rdma-memory", "cuda"},
                 {"gid-index", "3"},
                 {"tx-depth", "256"},
                 {"rdma-device", "mlx5_1"},
                 {"rdma-port", "2"}};
  o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.ops, (std::vector<rdma::rdma_op>{rdma::rdma_op::write, rdma::rdma_op::read}));
  EXPECT_EQ(o.memory, rdma::memory_kind::cuda);
  EXPECT_EQ(o.gid_index, 3);
  EXPECT_EQ(o.tx_depth, 256u);
  EXPECT_EQ(o.device, "mlx5_1");
  EXPECT_EQ(o.port, 2);
}

TEST(RdmaParams, RejectsBadOptionsNamingThem) {
  auto bad = [](const std::string& name, const std::string& value) {
    gpubench::core::run_context ctx;
    ctx.options = {{name, value}};
    try {
      rdma::parse_rdma_options(ctx);
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("--" + name), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << name << "=" << value << " accepted";
  };
  bad("rdma-op", "atomic");
  bad("rdma-op", "send,");
  bad("rdma-op", ",");
  bad("rdma-memory", "gpu");
  bad("tx-depth", "0");
  bad("tx-depth", "100000");
  bad("tx-depth", "12x");
  bad("rdma-port", "0");
  bad("gid-index", "-1");
  bad("cq-mod", "0");
  bad("rdma-inline", "5000");
  bad("rdma-iters", "0");
  bad("rdma-direction", "sideways");
  bad("rdma-gpu", "-1");
  bad("peer-rdma-gpu", "x");
  bad("rdma-completion", "interrupt");
  bad("rdma-tclass", "256");
  bad("rdma-sl", "16");
  bad("pkey-index", "-1");
  bad("pkey-index", "65536");
  bad("peer-pkey-index", "x");
}

TEST(RdmaParams, CompletionTrafficClassAndServiceLevel) {
  gpubench::core::run_context ctx;
  auto o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.completion, rdma::completion_mode::poll);
  EXPECT_EQ(o.tclass, 0);
  EXPECT_EQ(o.sl, 0);
  ctx.options = {{"rdma-completion", "event"}, {"rdma-tclass", "106"}, {"rdma-sl", "3"}};
  o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.completion, rdma::completion_mode::event);
  EXPECT_EQ(o.tclass, 106);
  EXPECT_EQ(o.sl, 3);
  EXPECT_EQ(rdma::to_string(o.completion), "event");
  // rdma_cm takes the traffic class as the id's type of service; the service level comes
  // from the path it resolves, so --rdma-sl would silently not apply.
  ctx.options = {{"rdma-cm", "on"}, {"rdma-tclass", "106"}};
  EXPECT_EQ(rdma::parse_rdma_options(ctx).tclass, 106);
  ctx.options = {{"rdma-cm", "on"}, {"rdma-sl", "3"}};
  EXPECT_THROW(rdma::parse_rdma_options(ctx), usage_error);
}

TEST(RdmaParams, RelaxedOrderingIsOnUnlessTurnedOff) {
  gpubench::core::run_context ctx;
  EXPECT_TRUE(rdma::parse_rdma_options(ctx).relaxed_ordering);  // perftest's default
  ctx.options = {{"rdma-relaxed-ordering", "off"}};
  EXPECT_FALSE(rdma::parse_rdma_options(ctx).relaxed_ordering);
  ctx.options = {{"rdma-relaxed-ordering", "on"}};
  EXPECT_TRUE(rdma::parse_rdma_options(ctx).relaxed_ordering);
  for (const char* bad : {"yes", "1", "OFF"}) {
    ctx.options = {{"rdma-relaxed-ordering", bad}};
    try {
      rdma::parse_rdma_options(ctx);
      ADD_FAILURE() << "'" << bad << "' accepted";
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("--rdma-relaxed-ordering"), std::string::npos);
    }
  }
}

TEST(RdmaParams, PkeyIndexOptionAndTableCheck) {
  gpubench::core::run_context ctx;
  auto o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.pkey_index, 0);
  EXPECT_EQ(o.peer_pkey_index, 0);
  ctx.options = {{"pkey-index", "2"}, {"peer-pkey-index", "5"}};
  o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.pkey_index, 2);
  EXPECT_EQ(o.peer_pkey_index, 5);
  // rdma_cm takes the partition from the IP interface: the option would silently not apply.
  ctx.options = {{"rdma-cm", "on"}, {"pkey-index", "1"}};
  EXPECT_THROW(rdma::parse_rdma_options(ctx), usage_error);
  ctx.options = {{"rdma-cm", "on"}, {"peer-pkey-index", "1"}};
  EXPECT_THROW(rdma::parse_rdma_options(ctx), usage_error);

  // Against the port: the default partition at 0, a limited member at 1, an empty slot at 2.
  EXPECT_EQ(rdma::pkey_index_problem(0, 128, 0xffff), "");
  EXPECT_EQ(rdma::pkey_index_problem(1, 128, 0x7fff), "") << "limited membership is a member";
  EXPECT_EQ(rdma::pkey_index_problem(127, 128, 0x8001), "");
  const auto outside = rdma::pkey_index_problem(128, 128, 0);
  EXPECT_NE(outside.find("--pkey-index 128"), std::string::npos) << outside;
  EXPECT_NE(outside.find("0..127"), std::string::npos) << outside;
  EXPECT_EQ(rdma::pkey_index_problem(0, 0, 0), "") << "iWARP ports have no P_Key table";
  EXPECT_NE(rdma::pkey_index_problem(1, 0, 0).find("no entries"), std::string::npos);
  EXPECT_NE(rdma::pkey_index_problem(-1, 16, 0xffff), "");
  for (const std::uint16_t empty : {std::uint16_t{0}, std::uint16_t{0x8000}}) {
    const auto why = rdma::pkey_index_problem(2, 16, empty);
    EXPECT_NE(why.find("empty entry"), std::string::npos) << why;
    EXPECT_NE(why.find(rdma::pkey_text(empty)), std::string::npos) << why;
  }
  EXPECT_EQ(rdma::pkey_text(0xffff), "0xffff");
  EXPECT_EQ(rdma::pkey_text(0x12), "0x0012");
}

TEST(RdmaParams, BandwidthDirectionsAndIterations) {
  gpubench::core::run_context ctx;
  auto o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.iterations, 5000u);  // perftest's bandwidth default
  EXPECT_EQ(o.directions, rdma::bw_directions::both);
  ctx.options = {{"rdma-iters", "20000"}, {"rdma-direction", "bidir"}, {"rdma-gpu", "3"}};
  o = rdma::parse_rdma_options(ctx);
  EXPECT_EQ(o.iterations, 20000u);
  EXPECT_EQ(o.directions, rdma::bw_directions::bidir);
  EXPECT_EQ(o.gpu, 3);

  using strings = std::vector<std::string>;
  // A read pulls data from the peer: its one-way case is labelled as TCP's from_peer.
  EXPECT_EQ(rdma::bandwidth_directions(rdma::rdma_op::read, rdma::bw_directions::both),
            (strings{"from_peer", "bidir"}));
  EXPECT_EQ(rdma::bandwidth_directions(rdma::rdma_op::write, rdma::bw_directions::uni),
            (strings{"to_peer"}));
  EXPECT_EQ(rdma::bandwidth_directions(rdma::rdma_op::send, rdma::bw_directions::bidir),
            (strings{"bidir"}));
}

TEST(RdmaParams, InlineChoice) {
  using rdma::memory_kind;
  using rdma::rdma_op;
  using rdma::test_kind;
  // Latency without --rdma-inline: the provider's default; bandwidth: none; reads and GPU
  // memory: never.
  EXPECT_EQ(rdma::wanted_inline(test_kind::latency, rdma_op::write, memory_kind::host, {}, 220),
            220u);
  EXPECT_EQ(rdma::wanted_inline(test_kind::latency, rdma_op::send, memory_kind::host, {}, 96), 96u);
  EXPECT_EQ(rdma::wanted_inline(test_kind::latency, rdma_op::send, memory_kind::host, {}, 0), 0u);
  EXPECT_EQ(rdma::wanted_inline(test_kind::latency, rdma_op::read, memory_kind::host, 64u, 220),
            0u);
  EXPECT_EQ(rdma::wanted_inline(test_kind::latency, rdma_op::send, memory_kind::cuda, 64u, 236),
            0u);
  EXPECT_EQ(rdma::wanted_inline(test_kind::bandwidth, rdma_op::write, memory_kind::host, {}, 220),
            0u);
  // What was asked for wins over the provider's default, either way.
  EXPECT_EQ(rdma::wanted_inline(test_kind::bandwidth, rdma_op::write, memory_kind::host, 64u, 0),
            64u);
  EXPECT_EQ(rdma::wanted_inline(test_kind::latency, rdma_op::send, memory_kind::host, 0u, 236), 0u);
}

TEST(RdmaParams, InlineDefaultPerProvider) {
  using rdma::rdma_op;
  const auto def = [](rdma_op op, const char* provider, const char* device, std::uint32_t vendor) {
    return rdma::provider_inline_default(op, provider, device, vendor);
  };
  // ConnectX (Mellanox's OUI as vendor id) and Chelsio: perftest's 220 / 236.
  EXPECT_EQ(def(rdma_op::write, "mlx5", "mlx5_0", 0x02c9), 220u);
  EXPECT_EQ(def(rdma_op::send, "mlx5", "mlx5_0", 0x02c9), 236u);
  EXPECT_EQ(def(rdma_op::send, "mlx4", "mlx4_0", 0x02c9), 236u);
  EXPECT_EQ(def(rdma_op::write, "cxgb4", "cxgb4_0", 0x1425), 220u);
  // Providers that hold less.
  EXPECT_EQ(def(rdma_op::send, "bnxt_re", "bnxt_re0", 0x14e4), 96u);
  EXPECT_EQ(def(rdma_op::write, "bnxt_re", "bnxt_re0", 0x14e4), 96u);
  EXPECT_EQ(def(rdma_op::send, "efa", "rdmap0s6", 0x1d0f), 32u);
  EXPECT_EQ(def(rdma_op::send, "qedr", "qedr0", 0x1077), 128u);
  EXPECT_EQ(def(rdma_op::send, "erdma", "erdma_0", 0x1ded), 96u);
  EXPECT_EQ(def(rdma_op::send, "hns", "hns_0", 0x19e5), 32u);
  EXPECT_EQ(def(rdma_op::send, "irdma", "irdma0", 0x8086), 101u);
  EXPECT_EQ(def(rdma_op::send, "irdma", "i40iw0", 0x8086), 48u);
  // Unknown to perftest: none (soft-RoCE, soft-iWARP, PVRDMA, anything new).
  EXPECT_EQ(def(rdma_op::send, "rxe", "rxe0", 0xffffff), 0u);
  EXPECT_EQ(def(rdma_op::write, "siw", "siw0", 0x626d74), 0u);
  EXPECT_EQ(def(rdma_op::send, "vmw_pvrdma", "vmw_pvrdma0", 0x15ad), 0u);
  EXPECT_EQ(def(rdma_op::send, "newnic", "newnic0", 0x1234), 0u);
  // A provider name not in the list: the vendor decides.
  EXPECT_EQ(def(rdma_op::send, "mlx6", "mlx6_0", 0x02c9), 236u);
  EXPECT_EQ(def(rdma_op::send, "bnxt_next", "bnxt0", 0x14e4), 96u);
  EXPECT_EQ(def(rdma_op::send, "efa2", "efa0", 0x1d0f), 32u);
  // Reads send nothing inline.
  EXPECT_EQ(def(rdma_op::read, "mlx5", "mlx5_0", 0x02c9), 0u);
}

TEST(RdmaParams, WindowDepthsAndSignalling) {
  using rdma::test_kind;
  EXPECT_EQ(rdma::send_depth(test_kind::bandwidth, 128, 16384), 128u);
  EXPECT_EQ(rdma::send_depth(test_kind::bandwidth, 128, 64),
            63u);  // device limit less the sync slot
  // Ping-pong: room for 2 x the signal interval (the signalled post is reaped only before the
  // next one) and the control slots, within the device.
  EXPECT_EQ(rdma::send_depth(test_kind::latency, 128, 16384), 204u);
  EXPECT_EQ(rdma::send_depth(test_kind::latency, 128, 64), 64u);
  // Send bandwidth keeps max(512, 2 x window) receives posted, within the device's limit.
  EXPECT_EQ(rdma::recv_depth(test_kind::bandwidth, rdma::rdma_op::send, 128, 16384), 512u);
  EXPECT_EQ(rdma::recv_depth(test_kind::bandwidth, rdma::rdma_op::send, 1024, 16384), 2048u);
  EXPECT_EQ(rdma::recv_depth(test_kind::bandwidth, rdma::rdma_op::send, 1024, 1000), 1000u);
  EXPECT_EQ(rdma::recv_depth(test_kind::bandwidth, rdma::rdma_op::write, 128, 16384), 16u);
  EXPECT_EQ(rdma::signal_interval(100, 128), 100u);
  EXPECT_EQ(rdma::signal_interval(100, 16), 16u);  // never beyond the window
  EXPECT_EQ(rdma::signal_interval(0, 16), 1u);
}

TEST(RdmaParams, InlineOnlyFromHostMemoryUpToWhatWasAsked) {
  using rdma::rdma_op;
  // The provider granted more than was asked (mlx5 rounds up): only what was asked is inline.
  EXPECT_TRUE(rdma::use_inline(rdma_op::send, 236, 236, 512, true));
  EXPECT_FALSE(rdma::use_inline(rdma_op::send, 400, 236, 512, true));
  // Bandwidth asks for none; a provider that grants some anyway does not make posts inline.
  EXPECT_FALSE(rdma::use_inline(rdma_op::write, 2, 0, 60, true));
  // GPU memory: the CPU cannot copy a device pointer.
  EXPECT_FALSE(rdma::use_inline(rdma_op::send, 2, 236, 236, false));
  EXPECT_FALSE(rdma::use_inline(rdma_op::read, 2, 236, 236, true));
  // The provider granted less than asked.
  EXPECT_FALSE(rdma::use_inline(rdma_op::send, 200, 236, 128, true));
}

TEST(RdmaParams, QueueSizesRoundThenClamp) {
  // Most providers: clamped to the device maximum.
  EXPECT_EQ(rdma::queue_entries(129, 16384, false), 129u);
  EXPECT_EQ(rdma::queue_entries(5000, 4096, false), 4096u);
  // PVRDMA rounds up to a power of two: 129 asks for 256, and a size that would round past
  // the maximum takes the largest power of two within it.
  EXPECT_EQ(rdma::queue_entries(129, 16384, true), 256u);
  EXPECT_EQ(rdma::queue_entries(600, 1000, true), 512u);
  EXPECT_EQ(rdma::queue_entries(1000, 1000, true), 512u);
  EXPECT_EQ(rdma::queue_entries(1024, 1024, true), 1024u);
  EXPECT_EQ(rdma::queue_entries(0, 1024, true), 1u);
  EXPECT_TRUE(rdma::rounds_queues_to_pow2("vmw_pvrdma"));
  EXPECT_FALSE(rdma::rounds_queues_to_pow2("mlx5"));
}

TEST(RdmaParams, ReceiverDrainsToWholeSamples) {
  EXPECT_EQ(rdma::receives_outstanding(0, 5000), 0u);
  EXPECT_EQ(rdma::receives_outstanding(4999, 5000), 1u);
  EXPECT_EQ(rdma::receives_outstanding(10000, 5000), 0u);
  EXPECT_EQ(rdma::receives_outstanding(10001, 5000), 4999u);
  EXPECT_EQ(rdma::receives_outstanding(7, 0), 0u);
}

TEST(RdmaParams, OutstandingReads) {
  EXPECT_EQ(rdma::outstanding_reads(16, 16, 0), 16);
  EXPECT_EQ(rdma::outstanding_reads(16, 4, 0), 4);   // device limit
  EXPECT_EQ(rdma::outstanding_reads(16, 16, 8), 8);  // the peer's limit
  EXPECT_EQ(rdma::outstanding_reads(16, 0, 0), 1);   // never 0: reads would fail
}

TEST(RdmaParams, CpuLists) {
  EXPECT_EQ(rdma::parse_cpu_list("0-3,8-9"), (std::vector<int>{0, 1, 2, 3, 8, 9}));
  EXPECT_EQ(rdma::parse_cpu_list("5"), (std::vector<int>{5}));
  EXPECT_TRUE(rdma::parse_cpu_list("3-1").empty());
  EXPECT_TRUE(rdma::parse_cpu_list("a-b").empty());
  EXPECT_TRUE(rdma::parse_cpu_list("1-2x").empty());
  EXPECT_TRUE(rdma::parse_cpu_list("").empty());
}

TEST(RdmaParams, DmabufExportStartsOnAPage) {
  using gpubench::transports::rdma::dmabuf_range_for;
  // An allocation 0x200 bytes into a page: the export starts at the page, the MR at offset 0x200.
  const auto r = dmabuf_range_for(0x7f0000001200ull, 0x10000, 4096);
  EXPECT_EQ(r.base, 0x7f0000001000ull);
  EXPECT_EQ(r.offset, 0x200u);
  EXPECT_EQ(r.length, 0x11000u);  // covers the buffer's last byte, whole pages
  const auto aligned = dmabuf_range_for(0x7f0000200000ull, 0x10000, 4096);
  EXPECT_EQ(aligned.offset, 0u);
  EXPECT_EQ(aligned.length, 0x10000u);
}

// Ping-pong signals one post in cq_mod as perftest's latency tests (a send completes with the
// peer's ACK, which RoCE may delay), and never more posts are outstanding than the queue holds.
TEST(RdmaParams, PingPongSignalsOneInAHundredWithinTheQueue) {
  using rdma::test_kind;
  EXPECT_EQ(rdma::latency_signal_interval(rdma::send_depth(test_kind::latency, 128, 16384)), 100u);
  for (std::uint32_t cap : {1u, 2u, 5u, 6u, 64u, 203u, 204u, 16384u}) {
    const std::uint32_t depth = rdma::send_depth(test_kind::latency, 128, cap);
    const std::uint32_t every = rdma::latency_signal_interval(depth);
    EXPECT_GE(every, 1u) << cap;
    if (every > 1) {  // every post signalled: reaped before the next, one outstanding
      EXPECT_LE(2 * every + 4, depth) << cap;
    }
  }
}

namespace {

// A registration that the test can refuse: the "region" is how it was registered.
struct fake_registration {
  bool refuse_relaxed = false;
  bool refuse_all = false;
  std::vector<bool> calls;
  std::string operator()(bool relaxed) {
    calls.push_back(relaxed);
    if (refuse_all || (relaxed && refuse_relaxed))
      throw std::runtime_error("ibv_reg_mr of 8192 bytes on mlx5_0: Invalid argument (errno 22)");
    return relaxed ? "relaxed" : "strict";
  }
};

}  // namespace

TEST(RdmaRelaxedOrdering, AskedAndGranted) {
  fake_registration reg;
  rdma::relaxed_ordering_outcome out;
  EXPECT_EQ(rdma::register_with_relaxed_ordering(std::ref(reg), true, true, out), "relaxed");
  EXPECT_TRUE(out.used);
  EXPECT_EQ(out.why.rfind("on", 0), 0u) << out.why;
  EXPECT_EQ(reg.calls, (std::vector<bool>{true}));
}

TEST(RdmaRelaxedOrdering, RefusedFallsBackAndSaysWhy) {
  fake_registration reg;
  reg.refuse_relaxed = true;
  rdma::relaxed_ordering_outcome out;
  EXPECT_EQ(rdma::register_with_relaxed_ordering(std::ref(reg), true, true, out), "strict");
  EXPECT_FALSE(out.used);
  EXPECT_NE(out.why.find("Invalid argument"), std::string::npos) << out.why;
  EXPECT_NE(out.why.find("registered without"), std::string::npos) << out.why;
  EXPECT_EQ(reg.calls, (std::vector<bool>{true, false}));
}

TEST(RdmaRelaxedOrdering, OffOrUnavailableNeverAsks) {
  rdma::relaxed_ordering_outcome out;
  fake_registration off;
  EXPECT_EQ(rdma::register_with_relaxed_ordering(std::ref(off), false, true, out), "strict");
  EXPECT_FALSE(out.used);
  EXPECT_NE(out.why.find("--rdma-relaxed-ordering off"), std::string::npos) << out.why;
  EXPECT_EQ(off.calls, (std::vector<bool>{false}));
  fake_registration old_headers;
  EXPECT_EQ(rdma::register_with_relaxed_ordering(std::ref(old_headers), true, false, out),
            "strict");
  EXPECT_FALSE(out.used);
  EXPECT_NE(out.why.find("headers"), std::string::npos) << out.why;
  EXPECT_EQ(old_headers.calls, (std::vector<bool>{false}));
}

TEST(RdmaRelaxedOrdering, AFailureWithoutTheFlagIsTheError) {
  fake_registration reg;
  reg.refuse_all = true;
  rdma::relaxed_ordering_outcome out;
  EXPECT_THROW(rdma::register_with_relaxed_ordering(std::ref(reg), true, true, out),
               std::runtime_error);
  EXPECT_EQ(reg.calls, (std::vector<bool>{true, false}));
  fake_registration off;
  off.refuse_all = true;
  EXPECT_THROW(rdma::register_with_relaxed_ordering(std::ref(off), false, true, out),
               std::runtime_error);
  EXPECT_EQ(off.calls, (std::vector<bool>{false}));
}
