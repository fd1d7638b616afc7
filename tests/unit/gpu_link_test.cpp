// GPU topology without a GPU: link peaks, sysfs PCIe parsing of fixture trees, and the
// nvidia-smi-style classification of GPU pairs.
#include <gtest/gtest.h>

#include <filesystem>

#include "benchmarks/gpu/link_peak.hpp"
#include "benchmarks/gpu/pair_link.hpp"
#include "benchmarks/gpu/pci_gpus.hpp"

namespace gpubench::benchmarks::gpu {
namespace {

const std::filesystem::path fixtures = std::filesystem::path(GPUBENCH_TEST_DATA) / "gpu_sysfs";

TEST(GpuLinkPeak, ReadsSysfsSpeedStrings) {
  EXPECT_EQ(pcie_generation("2.5 GT/s PCIe"), 1);
  EXPECT_EQ(pcie_generation("5.0 GT/s PCIe"), 2);
  EXPECT_EQ(pcie_generation("8.0 GT/s PCIe"), 3);
  EXPECT_EQ(pcie_generation("8 GT/s"), 3);
  EXPECT_EQ(pcie_generation("16.0 GT/s PCIe"), 4);
  EXPECT_EQ(pcie_generation("32.0 GT/s PCIe"), 5);
  EXPECT_EQ(pcie_generation("64.0 GT/s PCIe"), 6);
  EXPECT_FALSE(pcie_generation("Unknown"));
  EXPECT_FALSE(pcie_generation("Unknown speed"));
  EXPECT_FALSE(pcie_generation("12.0 GT/s PCIe"));
  EXPECT_FALSE(pcie_generation("16.0 Gb/s"));
  EXPECT_FALSE(pcie_generation(""));
}

TEST(GpuLinkPeak, PcieAfterEncodingMatchesThePublishedTable) {
  EXPECT_NEAR(pcie_peak(3, 16)->value, 15.75, 0.05);
  EXPECT_NEAR(pcie_peak(4, 16)->value, 31.5, 0.05);
  EXPECT_NEAR(pcie_peak(5, 16)->value, 63.0, 0.05);
  EXPECT_NEAR(pcie_peak(4, 8)->value, 15.75, 0.05);
  EXPECT_NEAR(pcie_peak(1, 16)->value, 4.0, 0.05);  // 8b/10b
  EXPECT_NEAR(pcie_peak(2, 16)->value, 8.0, 0.05);
  EXPECT_NEAR(pcie_peak(5, 16, 2)->value, 126.0, 0.05);
  const auto p = pcie_peak(5, 16);
  EXPECT_EQ(p->unit, "GB/s");
  EXPECT_EQ(p->basis, "PCIe 5.0 x16, 63.02 GB/s per direction");
  EXPECT_FALSE(pcie_peak(0, 16));
  EXPECT_FALSE(pcie_peak(4, 0));
  EXPECT_FALSE(pcie_peak(7, 16));
}

TEST(GpuLinkPeak, NvlinkLinksTimesRate) {
  EXPECT_DOUBLE_EQ(nvlink_peak(7, 0, 6)->value, 150.0);   // V100
  EXPECT_DOUBLE_EQ(nvlink_peak(8, 0, 12)->value, 300.0);  // A100
  EXPECT_DOUBLE_EQ(nvlink_peak(9, 0, 18)->value, 450.0);  // H100 SXM
  EXPECT_DOUBLE_EQ(nvlink_peak(9, 0, 18, 2)->value, 900.0);
  EXPECT_DOUBLE_EQ(nvlink_peak(10, 0, 18)->value, 900.0);   // B200
  EXPECT_DOUBLE_EQ(nvlink_peak(8, 6, 4, 2)->value, 112.5);  // A40 bridge
  EXPECT_EQ(nvlink_peak(8, 0, 12)->basis, "NVLink 3 x12 links, 25 GB/s per link per direction");
  EXPECT_FALSE(nvlink_peak(7, 5, 2));  // Turing: no NVLink generation known
  EXPECT_FALSE(nvlink_peak(9, 0, 0));
}

TEST(GpuSysfs, FindsOnlyNvidiaDisplayControllers) {
  const auto gpus = scan_pci_gpus(fixtures / "two_socket" / "sys");
  ASSERT_EQ(gpus.size(), 4u);  // not the audio function, the NVSwitch or the NIC
  EXPECT_EQ(gpus[0].bus_id, "0000:03:00.0");
  EXPECT_EQ(gpus[1].bus_id, "0000:04:00.0");
  EXPECT_EQ(gpus[2].bus_id, "0000:05:00.0");
  EXPECT_EQ(gpus[3].bus_id, "0000:81:00.0");
  EXPECT_EQ(gpus[3].device_id, "0x2330");
  EXPECT_EQ(gpus[3].numa_node, 1);
}

TEST(GpuSysfs, ReadsCurrentAndMaximumLink) {
  const auto gpus = scan_pci_gpus(fixtures / "two_socket" / "sys");
  ASSERT_EQ(gpus.size(), 4u);
  // Idle GPUs train down: current Gen1, maximum Gen4.
  EXPECT_EQ(gpus[0].current.generation, 1);
  EXPECT_EQ(gpus[0].current.width, 16);
  EXPECT_EQ(gpus[0].max.generation, 4);
  EXPECT_EQ(gpus[0].max.speed, "16.0 GT/s PCIe");
  EXPECT_EQ(usable_link(gpus[0]).generation, 4);
  const std::vector<std::string> path = {"pci0000:00", "0000:00:01.0", "0000:01:00.0",
                                         "0000:02:00.0", "0000:03:00.0"};
  EXPECT_EQ(gpus[0].path, path);
}

TEST(GpuSysfs, UsableLinkIsTheSlowerEnd) {
  const auto gpus = scan_pci_gpus(fixtures / "two_socket" / "sys");
  ASSERT_EQ(gpus.size(), 4u);
  // A Gen4 GPU in a Gen3 slot runs at Gen3.
  EXPECT_EQ(gpus[2].max.generation, 4);
  EXPECT_EQ(gpus[2].upstream_max.generation, 3);
  EXPECT_EQ(usable_link(gpus[2]).generation, 3);
  EXPECT_EQ(usable_link(gpus[2]).width, 16);
}

TEST(GpuSysfs, VirtualMachineWithoutNumaOrPortSpeed) {
  const auto gpus = scan_pci_gpus(fixtures / "vm_passthrough" / "sys");
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_FALSE(gpus[0].numa_node);                // -1 in sysfs
  EXPECT_FALSE(gpus[0].upstream_max.generation);  // "Unknown"
  EXPECT_FALSE(gpus[0].upstream_max.width);       // 255
  EXPECT_EQ(usable_link(gpus[0]).generation, 3);  // the GPU's own maximum
  EXPECT_EQ(usable_link(gpus[0]).width, 16);
}

TEST(GpuSysfs, MissingTreeIsEmpty) {
  EXPECT_TRUE(scan_pci_gpus(fixtures / "does_not_exist").empty());
}

TEST(GpuSysfs, NormalizesBusIds) {
  EXPECT_EQ(normalize_bus_id("00000000:3B:00.0"), "0000:3b:00.0");
  EXPECT_EQ(normalize_bus_id("0000:3B:00.0"), "0000:3b:00.0");
  EXPECT_EQ(normalize_bus_id("0000:3b:00.0"), "0000:3b:00.0");
}

TEST(GpuPairLink, ClassifiesFixturePairs) {
  const auto g = scan_pci_gpus(fixtures / "two_socket" / "sys");
  ASSERT_EQ(g.size(), 4u);
  auto cls = [&](std::size_t a, std::size_t b) {
    return classify_pcie_path(g[a].path, g[a].numa_node, g[b].path, g[b].numa_node);
  };
  EXPECT_EQ(cls(0, 1), pcie_path::pix);  // one switch
  EXPECT_EQ(cls(1, 0), pcie_path::pix);
  EXPECT_EQ(cls(0, 2), pcie_path::phb);  // two root ports, one root complex
  EXPECT_EQ(cls(0, 3), pcie_path::sys);  // other socket
  EXPECT_EQ(cls(2, 3), pcie_path::sys);
}

TEST(GpuPairLink, ClassifiesSyntheticPaths) {
  const std::vector<std::string> a = {"pci0000:00",   "0000:00:01.0", "0000:01:00.0",
                                      "0000:02:00.0", "0000:03:00.0", "0000:04:00.0",
                                      "0000:05:00.0"};
  const std::vector<std::string> b = {"pci0000:00",   "0000:00:01.0", "0000:01:00.0",
                                      "0000:02:08.0", "0000:06:00.0", "0000:07:00.0",
                                      "0000:08:00.0"};
  EXPECT_EQ(classify_pcie_path(a, 0, b, 0), pcie_path::pxb);  // two switch levels
  const std::vector<std::string> c = {"pci0000:17", "0000:17:00.0", "0000:18:00.0"};
  const std::vector<std::string> d = {"pci0000:3a", "0000:3a:00.0", "0000:3b:00.0"};
  EXPECT_EQ(classify_pcie_path(c, 0, d, 0), pcie_path::node);  // two host bridges, one node
  EXPECT_EQ(classify_pcie_path(c, 0, d, 1), pcie_path::sys);
  EXPECT_EQ(classify_pcie_path(c, std::nullopt, d, 0), pcie_path::unknown);
  EXPECT_EQ(classify_pcie_path({}, 0, d, 0), pcie_path::unknown);
}

TEST(GpuPairLink, Labels) {
  pair_link l;
  l.kind = "nvlink";
  l.nvlink_links = 12;
  EXPECT_EQ(l.label(), "NV12");
  l.kind = "pcie";
  l.pcie = pcie_path::node;
  EXPECT_EQ(l.label(), "NODE");
  EXPECT_EQ(to_json(l)["link"], "pcie");
  EXPECT_FALSE(to_json(l).contains("nvlink_links"));
}

}  // namespace
}  // namespace gpubench::benchmarks::gpu
