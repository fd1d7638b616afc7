#include "benchmarks/network/sample_sizing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <gtest/gtest.h>

#include "transports/tcp/socket_buffers.hpp"

namespace net = gpubench::benchmarks::network;

namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;

// A path that moves `burst_bytes` per stream at `burst_rate` (empty socket buffers, caches)
// and the rest at `steady_rate` bytes/s, after `latency` seconds.
struct path_model {
  double steady_rate;
  double burst_rate;
  double burst_bytes;
  double latency = 20e-6;
  double seconds(std::uint64_t messages, std::uint64_t bytes) const {
    const double total = static_cast<double>(messages * bytes);
    const double burst = std::min(total, burst_bytes);
    return latency + burst / burst_rate + (total - burst) / steady_rate;
  }
};

// Runs the calibration against `path`; returns the calibration and the time its probes took.
std::pair<net::sample_calibration, double> calibrate(const net::sample_target& t,
                                                     std::uint64_t bytes, const path_model& path) {
  net::sample_calibration cal(t, bytes);
  double spent = 0;
  while (!cal.done()) {
    const double s = path.seconds(cal.probe(), bytes);
    spent += s;
    cal.add(s);
  }
  return {cal, spent};
}

}  // namespace

TEST(SampleSizing, FastLinkLargeMessagesPerftestFloorUpToTheCap) {
  // 100 Gbit/s (12.5 GB/s) at 1 MiB: 50 ms is 597 messages; perftest's 5000 would take 420 ms,
  // so the floor stops at the 100 ms cap.
  net::sample_target t;
  t.floor_messages = 5000;
  const double rate = 12.5e9 / MiB;
  const auto n = net::sample_messages(t, MiB, rate);
  EXPECT_EQ(n, 1192u);
  EXPECT_GE(static_cast<double>(n) / rate, 0.05);
  EXPECT_LE(static_cast<double>(n) / rate, 0.1);
  // Without a floor: the 50 ms of the target.
  EXPECT_EQ(net::sample_messages({}, MiB, rate), 597u);
}

TEST(SampleSizing, FastLinkSmallMessagesFollowTheTargetNotTheFloor) {
  // 2 B at 20 million messages/s: 50 ms is a million messages, far above perftest's 5000.
  net::sample_target t;
  t.floor_messages = 5000;
  EXPECT_EQ(net::sample_messages(t, 2, 20e6), 1'000'000u);
  // A slow message rate (10k/s at 4 KiB): perftest's 5000 would be 0.5 s; capped at 100 ms.
  EXPECT_EQ(net::sample_messages(t, 4 * KiB, 10e3), 1000u);
}

TEST(SampleSizing, SoftRoceAt80MBpsGivesItsSamplesWithinTheTimeout) {
  // Soft-RoCE in an emulated machine: about 80 MB/s. The old rule sized 1 MiB samples from the
  // line rate (62 MB, 0.8 s each): a 2 s point got 2 samples. Now a sample lasts 50-100 ms.
  net::sample_target t;
  t.floor_messages = 5000;
  const double rate = 80e6 / MiB;
  const auto n = net::sample_messages(t, MiB, rate);
  EXPECT_EQ(n, 7u);
  EXPECT_LE(5 * static_cast<double>(n) / rate, 0.5);  // five samples in well under the 2 s timeout
  EXPECT_GE(static_cast<double>(n) / rate, 0.05);
  // 8 MiB messages at 80 MB/s: one message is 105 ms, a sample is never empty.
  EXPECT_EQ(net::sample_messages(t, 8 * MiB, 80e6 / (8 * MiB)), 1u);
}

TEST(SampleSizing, TcpSampleOutgrowsTheSocketBuffers) {
  net::sample_target t;
  t.floor_bytes = gpubench::transports::tcp::default_socket_buffer_bytes;  // 10 MiB
  // Loopback at 1.5 GB/s with 128 KiB writes: 50 ms is 75 MB, not the old 8 MiB burst.
  EXPECT_EQ(net::sample_messages(t, 128 * KiB, 1.5e9 / (128 * KiB)), 573u);
  // A shaped 1 Gbit/s link: 50 ms is 6.25 MB, less than the buffers: 80 messages (84 ms).
  EXPECT_EQ(net::sample_messages(t, 128 * KiB, 125e6 / (128 * KiB)), 80u);
  // 100 Mbit/s: the buffers would take 0.84 s; the floor stops at 100 ms.
  EXPECT_EQ(net::sample_messages(t, 128 * KiB, 12.5e6 / (128 * KiB)), 9u);
}

TEST(SampleSizing, BadInputIsRefused) {
  EXPECT_THROW(net::sample_messages({}, 0, 1e3), std::invalid_argument);
  EXPECT_THROW(net::sample_messages({}, 64, 0), std::invalid_argument);
  EXPECT_THROW(net::sample_messages({}, 64, std::numeric_limits<double>::infinity()),
               std::invalid_argument);
  net::sample_calibration cal({}, 64);
  EXPECT_THROW(cal.messages(), std::logic_error);
  EXPECT_THROW(cal.add(-1), std::invalid_argument);
}

TEST(SampleSizing, PointLimitFitsTheMinimumOfSamples) {
  using net::bandwidth_point_limit_s;
  // 50 ms samples: 5 of them fit the TCP criteria's 0.4 s, which stays.
  EXPECT_DOUBLE_EQ(bandwidth_point_limit_s(0.05, 5, 0.4), 0.4);
  // Samples raised to their 100 ms cap (256 MiB socket buffers): 0.4 s held 4; now 0.75 s.
  EXPECT_DOUBLE_EQ(bandwidth_point_limit_s(0.1, 5, 0.4), 0.75);
  EXPECT_GE(bandwidth_point_limit_s(0.1, 5, 0.4), 5 * 0.1);
  // RDMA's 2 s already holds 5 samples of 100 ms.
  EXPECT_DOUBLE_EQ(bandwidth_point_limit_s(0.1, 5, 2.0), 2.0);
  EXPECT_DOUBLE_EQ(bandwidth_point_limit_s(0, 5, 0.4), 0.4);
  EXPECT_THROW(bandwidth_point_limit_s(-1, 5, 0.4), std::invalid_argument);
  EXPECT_THROW(bandwidth_point_limit_s(std::nan(""), 5, 0.4), std::invalid_argument);
}

TEST(SampleSizing, TcpPointWithFullSizedSamplesReachesItsMinimum) {
  // What the driver does for a TCP point on a host with 256 MiB socket buffers at 10 Gb/s:
  // the floor pushes each 1 MiB sample to the 100 ms cap, and the point's limit then fits
  // the criteria's 5 samples, where the 0.4 s timeout alone held 4.
  net::sample_target t;
  t.floor_bytes = 256 * MiB;
  const double rate = 1.25e9 / MiB;  // 1 MiB messages per second at 10 Gb/s
  const auto n = net::sample_messages(t, MiB, rate);
  const double sample_s = static_cast<double>(n) / rate;
  EXPECT_NEAR(sample_s, 0.1, 0.002);
  EXPECT_LT(0.4 / sample_s, 5.0) << "the bug: the criteria's timeout holds fewer than 5";
  EXPECT_GE(net::bandwidth_point_limit_s(sample_s, 5, 0.4) / sample_s, 5.0 * 1.4);
}

TEST(SampleCalibration, BurstIntoEmptyBuffersDoesNotSetTheRate) {
  // The loopback veth: bursts of up to 10 MiB read 5 GB/s, the steady rate is 1.5 GB/s.
  const path_model veth{1.5e9, 5e9, 10.0 * MiB};
  net::sample_target t;
  t.floor_bytes = 10 * MiB;
  const auto [cal, spent] = calibrate(t, 128 * KiB, veth);
  const double steady = 1.5e9 / (128 * KiB);
  EXPECT_NEAR(cal.messages_per_second(), steady, 0.2 * steady);
  EXPECT_LE(cal.probes(), 3);
  EXPECT_LE(spent, 0.1);
  // The sized sample lasts 50 ms or more on the real path, not 15 ms of burst.
  EXPECT_GE(veth.seconds(cal.messages(), 128 * KiB), 0.045);
  EXPECT_LE(veth.seconds(cal.messages(), 128 * KiB), 0.1);
  net::sample_calibration over = cal;
  EXPECT_THROW(over.add(0.01), std::logic_error);
}

TEST(SampleCalibration, SlowDeviceCalibratesInTwoProbes) {
  // Soft-RoCE at 80 MB/s: the first probe (1 MiB) already takes 13 ms, the second 26 ms.
  const path_model rxe{80e6, 80e6, 0};
  net::sample_target t;
  t.floor_messages = 5000;
  const auto [cal, spent] = calibrate(t, MiB, rxe);
  EXPECT_EQ(cal.probes(), 2);
  EXPECT_LT(spent, 0.05);
  EXPECT_EQ(cal.messages(), 7u);
  // 2-byte messages at 50k messages/s: the first probe is 1024 messages, not 1 MiB of them.
  const path_model rxe_small{50e3 * 2, 50e3 * 2, 0};
  const auto [small, small_spent] = calibrate(t, 2, rxe_small);
  EXPECT_EQ(small.probes(), 2);
  EXPECT_LT(small_spent, 0.07);
  // perftest's floor would be 5000 messages, 100 ms at this rate: just under it.
  EXPECT_GE(small.messages(), 4900u);
  EXPECT_LE(rxe_small.seconds(small.messages(), 2), 0.1);
}

TEST(SampleCalibration, OneStalledProbeDoesNotSizeThePoint) {
  // 1.5 GB/s, but the first probe (1 MiB) stalls 25 ms on a loaded host: alone it would size
  // samples for 40 MB/s. The second probe measures the path.
  const path_model veth{1.5e9, 1.5e9, 0};
  net::sample_target t;
  net::sample_calibration cal(t, 4 * KiB);
  cal.add(0.025);
  while (!cal.done())
    cal.add(veth.seconds(cal.probe(), 4 * KiB));
  EXPECT_GE(veth.seconds(cal.messages(), 4 * KiB), 0.045);
}

TEST(SampleCalibration, FastLinkReachesTheTargetInFewProbes) {
  // 100 Gbit/s at 64 KiB: probes grow by at most 64x, calibration stays under 50 ms.
  const path_model link{12.5e9, 12.5e9, 0, 5e-6};
  net::sample_target t;
  t.floor_messages = 5000;
  const auto [cal, spent] = calibrate(t, 64 * KiB, link);
  EXPECT_LE(cal.probes(), 4);
  EXPECT_LE(spent, 0.05);
  const double s = link.seconds(cal.messages(), 64 * KiB);
  EXPECT_GE(s, 0.049);
  EXPECT_LE(s, 0.1);
}

TEST(SocketBuffers, SysctlMaximum) {
  using gpubench::transports::tcp::sysctl_buffer_max;
  EXPECT_EQ(sysctl_buffer_max("4096\t16384\t4194304\n"), 4194304u);
  EXPECT_EQ(sysctl_buffer_max("4096 131072 6291456"), 6291456u);
  EXPECT_FALSE(sysctl_buffer_max("4096 131072"));
  EXPECT_FALSE(sysctl_buffer_max("a b c"));
  EXPECT_FALSE(sysctl_buffer_max("1 2 3 4"));
  EXPECT_GE(gpubench::transports::tcp::socket_buffer_bytes(), 1u);
}
