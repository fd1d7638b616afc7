// GPU topology, peaks of paths, case matrices and sample shapes, with a fake backend
// standing in for CUDA and NVML over the sysfs fixture of a two-socket machine.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <stdexcept>

#include "benchmarks/gpu/copy_schedule.hpp"
#include "benchmarks/gpu/gpu_cases.hpp"
#include "benchmarks/gpu/gpu_topology.hpp"
#include "benchmarks/gpu/pattern.hpp"

namespace gpubench::benchmarks::gpu {
namespace {

const std::filesystem::path sys_root =
    std::filesystem::path(GPUBENCH_TEST_DATA) / "gpu_sysfs" / "two_socket" / "sys";

// Four A100s as CUDA orders them (not bus order); GPUs 0 and 1 share 12 NVLinks.
class fake_backend final : public backend {
 public:
  explicit fake_backend(bool nvml = true) : m_nvml(nvml) {}
  core::requirement_status status() const override { return core::requirement_status::ok(); }
  int device_count() const override { return 4; }
  device_facts device(int i) const override {
    static const char* bus[] = {"0000:04:00.0", "0000:03:00.0", "0000:05:00.0", "0000:81:00.0"};
    device_facts f;
    f.index = i;
    f.name = "NVIDIA A100-SXM4-40GB";
    f.pci_bus_id = bus[i];
    f.cc_major = 8;
    f.sm_count = 108;
    f.memory_bytes = 40ull << 30;
    return f;
  }
  pair_facts pair(int a, int b) const override {
    pair_facts f;
    f.can_access_peer = a < 3 && b < 3;
    f.performance_rank = 0;
    if (m_nvml) f.nvlink_links = (a + b == 1) ? 12 : 0;
    return f;
  }
  nlohmann::json software() const override { return {{"cuda_runtime", "13.0"}}; }
  std::vector<std::string> notes() const override { return {}; }
  std::unique_ptr<copy_job> host_copy(const host_copy_request&) override {
    throw std::logic_error("fake");
  }
  std::unique_ptr<copy_job> p2p_copy(const p2p_copy_request&) override {
    throw std::logic_error("fake");
  }
  std::unique_ptr<copy_job> latency(const latency_request&) override {
    throw std::logic_error("fake");
  }

 private:
  bool m_nvml;
};

TEST(GpuTopology, JoinsCudaOrderWithSysfs) {
  const auto t = load_topology(fake_backend(), sys_root);
  ASSERT_EQ(t.devices.size(), 4u);
  ASSERT_NE(t.pci_of(0), nullptr);
  EXPECT_EQ(t.pci_of(0)->bus_id, "0000:04:00.0");
  EXPECT_EQ(t.numa_of(3), 1);
  EXPECT_EQ(t.numa_of(0), 0);
}

TEST(GpuTopology, LinksFromNvmlAndSysfs) {
  const auto t = load_topology(fake_backend(), sys_root);
  EXPECT_EQ(t.link(0, 1).kind, "nvlink");
  EXPECT_EQ(t.link(0, 1).label(), "NV12");
  EXPECT_EQ(t.link(0, 1).nvlink_generation, 3);
  EXPECT_EQ(t.link(0, 2).kind, "pcie");
  EXPECT_EQ(t.link(0, 2).label(), "PHB");
  EXPECT_EQ(t.link(2, 3).label(), "SYS");
  const auto no_nvml = load_topology(fake_backend(false), sys_root);
  EXPECT_EQ(no_nvml.link(0, 1).kind, "unknown");
  EXPECT_EQ(no_nvml.link(0, 1).label(), "PIX");  // sysfs still knows the PCIe path
}

TEST(GpuTopology, PeaksOfPaths) {
  const auto t = load_topology(fake_backend(), sys_root);
  EXPECT_NEAR(t.host_peak({0}, 1)->value, 31.5, 0.05);
  EXPECT_NEAR(t.host_peak({2}, 1)->value, 15.75, 0.05);  // Gen4 GPU in a Gen3 slot
  EXPECT_NEAR(t.host_peak({3}, 2)->value, 126.0, 0.05);
  EXPECT_NEAR(t.host_peak({0, 1, 2, 3}, 1)->value, 31.5 + 31.5 + 15.75 + 63.0, 0.05);
  EXPECT_NEAR(t.p2p_peak(0, 1, false, 1)->value, 300.0, 0.05);
  EXPECT_NEAR(t.p2p_peak(0, 1, false, 2)->value, 600.0, 0.05);
  EXPECT_NEAR(t.p2p_peak(0, 1, true, 1)->value, 31.5, 0.05);  // staged: PCIe, not NVLink
  EXPECT_NEAR(t.p2p_peak(0, 2, false, 1)->value, 15.75, 0.05);
  EXPECT_NE(t.p2p_peak(0, 2, false, 1)->basis.find("slower PCIe link"), std::string::npos);
  const auto no_nvml = load_topology(fake_backend(false), sys_root);
  EXPECT_FALSE(no_nvml.p2p_peak(0, 1, false, 1));  // link unknown: no peak claimed
}

TEST(GpuTopology, SystemBlockJson) {
  const auto t = load_topology(fake_backend(), sys_root);
  const auto gpus = gpus_json(t);
  ASSERT_EQ(gpus.size(), 4u);
  EXPECT_EQ(gpus[0]["pci_bus_id"], "0000:04:00.0");
  EXPECT_EQ(gpus[0]["compute_capability"], "8.0");
  EXPECT_EQ(gpus[0]["pcie"]["max"]["generation"], 4);
  EXPECT_EQ(gpus[0]["pcie"]["current"]["width"], 16);
  EXPECT_EQ(gpus[2]["pcie"]["usable"]["generation"], 3);
  EXPECT_TRUE(gpus[0]["mig_mode"].is_null());
  const auto pairs = gpu_pairs_json(t);
  ASSERT_EQ(pairs.size(), 12u);
  EXPECT_EQ(pairs[0]["src"], 0);
  EXPECT_EQ(pairs[0]["dst"], 1);
  EXPECT_EQ(pairs[0]["topo"], "NV12");
  EXPECT_EQ(pairs[0]["peak_gbps"], 300.0);
  EXPECT_EQ(pairs[0]["can_access_peer"], true);
}

// With no CUDA devices, the kernel's GPUs and their PCIe paths are still reported.
class no_device_backend final : public backend {
 public:
  core::requirement_status status() const override {
    return core::requirement_status::missing("needs a CUDA device: no CUDA-capable device");
  }
  int device_count() const override { return 0; }
  device_facts device(int) const override { throw std::logic_error("none"); }
  pair_facts pair(int, int) const override { throw std::logic_error("none"); }
  nlohmann::json software() const override { return nlohmann::json::object(); }
  std::vector<std::string> notes() const override { return {"CUDA: no device"}; }
  std::unique_ptr<copy_job> host_copy(const host_copy_request&) override { return nullptr; }
  std::unique_ptr<copy_job> p2p_copy(const p2p_copy_request&) override { return nullptr; }
  std::unique_ptr<copy_job> latency(const latency_request&) override { return nullptr; }
};

TEST(GpuTopology, SysfsOnlyWithoutCuda) {
  const auto t = load_topology(no_device_backend(), sys_root);
  EXPECT_TRUE(t.devices.empty());
  const auto gpus = gpus_json(t);
  ASSERT_EQ(gpus.size(), 4u);
  EXPECT_TRUE(gpus[0]["index"].is_null());
  EXPECT_EQ(gpus[3]["numa_node"], 1);
  const auto pairs = gpu_pairs_json(t);
  ASSERT_EQ(pairs.size(), 6u);
  EXPECT_EQ(pairs[0]["pcie_path"], "PIX");
  EXPECT_EQ(t.notes, std::vector<std::string>{"CUDA: no device"});
}

TEST(GpuCases, HostCopyAxes) {
  const std::vector<unsigned> nodes = {0, 1};
  // Per GPU: pinned ce, pinned sm, pageable ce, each on two nodes; "all": pinned only.
  const auto h2d = host_copy_cases(2, nodes, host_direction::h2d);
  EXPECT_EQ(h2d.size(), 2u * 3u * 2u + 2u * 2u);
  const auto bidir = host_copy_cases(2, nodes, host_direction::bidir);
  EXPECT_EQ(bidir.size(), 3u * 2u * 2u);
  for (const auto& c : bidir)
    EXPECT_EQ(c["memory"], "pinned");
  EXPECT_EQ(host_copy_cases(1, {0}, host_direction::d2h).size(), 3u);
  EXPECT_TRUE(host_copy_cases(0, {0}, host_direction::h2d).empty());
  const auto req = host_copy_request_of(h2d.back(), 2, host_direction::h2d, 1 << 20);
  EXPECT_EQ(req.gpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(req.memory, host_memory::pinned);
  EXPECT_EQ(req.numa, 1u);
}

TEST(GpuCases, P2pMatricesAreComplete) {
  const auto t = load_topology(fake_backend(), sys_root);
  const auto cases = p2p_bandwidth_cases(t);
  // 10 variants (8 with peer access, 2 staged) x 12 ordered pairs.
  ASSERT_EQ(cases.size(), 10u * 12u);
  std::set<std::string> variants;
  std::set<std::pair<int, int>> pairs;
  for (const auto& c : cases) {
    EXPECT_NE(c["src"], c["dst"]);
    variants.insert(c["engine"].get<std::string>() + c["op"].get<std::string>() +
                    c["direction"].get<std::string>() + c["access"].get<std::string>());
    pairs.insert({c["src"].get<int>(), c["dst"].get<int>()});
    if (c["access"] == "staged") {
      EXPECT_EQ(c["engine"], "ce");
    }
  }
  EXPECT_EQ(variants.size(), 10u);
  EXPECT_EQ(pairs.size(), 12u);
  EXPECT_EQ(cases.front()["link"], "nvlink");
  const auto req = p2p_request_of(cases.front(), 64 << 20);
  EXPECT_EQ(req.src, 0);
  EXPECT_EQ(req.dst, 1);
  EXPECT_TRUE(req.peer_access);
  EXPECT_FALSE(req.read);
  EXPECT_EQ(p2p_latency_cases(t).size(), 12u);
  EXPECT_EQ(host_latency_cases(4, {0, 1}).size(), 8u);
}

TEST(GpuSchedule, ShortQueueBehindTheLatch) {
  EXPECT_EQ(schedule_for(64 << 10).loops, 16u);
  EXPECT_EQ(schedule_for(64 << 10).warmup, 4u);
  EXPECT_EQ(schedule_for(64ull << 20).loops, 4u);
  EXPECT_EQ(schedule_for(1ull << 30).loops, 2u);
  for (std::uint64_t b = 1 << 10; b <= (1ull << 32); b <<= 1)
    EXPECT_LE(schedule_for(b).loops + schedule_for(b).warmup, 20u);
}

TEST(GpuSchedule, KernelGeometryCountsOnlyCopiedBytes) {
  const auto big = sm_copy_geometry(1ull << 30, 108);
  EXPECT_EQ(big.blocks, 108u);
  EXPECT_EQ(big.threads, 512u);
  EXPECT_EQ(big.bytes, 1ull << 30);
  const auto small = sm_copy_geometry(64 << 10, 108);
  EXPECT_EQ(small.blocks, 8u);  // 4096 elements / 512 threads
  const auto odd = sm_copy_geometry(1000, 80);
  EXPECT_EQ(odd.bytes, 992u);  // the tail below 16 bytes is neither copied nor counted
  EXPECT_EQ(odd.blocks, 1u);
  EXPECT_EQ(sm_copy_geometry(0, 80).blocks, 1u);
  // The split-warp kernel fills every SM with several blocks, never more than the copy needs.
  EXPECT_EQ(sm_copy_geometry(1ull << 30, 108, split_copy_blocks_per_sm).blocks,
            108u * split_copy_blocks_per_sm);
  EXPECT_EQ(sm_copy_geometry(64 << 10, 108, split_copy_blocks_per_sm).blocks, 8u);
}

TEST(GpuSchedule, PointerChaseEndsWhereTheChainSays) {
  EXPECT_EQ(chase_end_node(0), 0u);
  EXPECT_EQ(chase_end_node(16384), 0u);  // 2 MiB / 128 B nodes: one full lap
  EXPECT_EQ(chase_end_node(16385), 1u);
}

TEST(GpuSchedule, PointerChaseDoesNotEndWhereItStarted) {
  // Ending on the start node, the end check would pass for a chase that never moved.
  EXPECT_NE(chase_end_node(chase_loads), 0u);
}

TEST(GpuPattern, SeedsDifferEverywhere) {
  int same = 0;
  for (std::uint64_t i = 0; i < 100000; ++i)
    same += pattern_word(i, 3) == pattern_word(i, 4);
  EXPECT_EQ(same, 0);
  EXPECT_NE(pattern_word(0, 3), pattern_word(1, 3));
}

}  // namespace
}  // namespace gpubench::benchmarks::gpu
