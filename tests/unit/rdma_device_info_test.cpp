// RDMA device description from a sysfs fixture: provider, link layer, rate, NUMA node,
// and the labels a report prints.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "transports/rdma/device_info.hpp"
#include "transports/rdma/system_info.hpp"

namespace rdma = gpubench::transports::rdma;
namespace fs = std::filesystem;

namespace {

class fixture_dir {
 public:
  fixture_dir() {
    std::random_device rd;
    m_root = fs::temp_directory_path() / ("gpubench-rdma-sysfs-" + std::to_string(rd()));
    fs::create_directories(m_root);
  }
  ~fixture_dir() {
    std::error_code ec;
    fs::remove_all(m_root, ec);
  }
  fixture_dir(const fixture_dir&) = delete;
  fixture_dir& operator=(const fixture_dir&) = delete;

  void write(const fs::path& rel, const std::string& text) {
    fs::create_directories((m_root / rel).parent_path());
    std::ofstream(m_root / rel) << text << "\n";
  }
  void link(const fs::path& rel, const fs::path& target) {
    fs::create_directories((m_root / rel).parent_path());
    fs::create_directory_symlink(target, m_root / rel);
  }
  const fs::path& root() const { return m_root; }

 private:
  fs::path m_root;
};

}  // namespace

TEST(RdmaDeviceInfo, PvrdmaOverRoceFromSysfs) {
  fixture_dir f;
  const fs::path cls = f.root() / "class";
  f.write("pci/0000:0b:00.1/numa_node", "1");
  f.link("pci/0000:0b:00.1/driver", f.root() / "drivers" / "vmw_pvrdma");
  f.link("class/vmw_pvrdma0/device", f.root() / "pci" / "0000:0b:00.1");
  f.write("class/vmw_pvrdma0/node_type", "1: CA");
  f.write("class/vmw_pvrdma0/fw_ver", "3.0.0");
  f.write("class/vmw_pvrdma0/ports/1/state", "4: ACTIVE");
  f.write("class/vmw_pvrdma0/ports/1/link_layer", "Ethernet");
  f.write("class/vmw_pvrdma0/ports/1/rate", "100 Gb/sec (4X EDR)");
  f.write("class/vmw_pvrdma0/ports/1/gid_attrs/ndevs/0", "ens224");
  f.write("class/vmw_pvrdma0/ports/1/gid_attrs/ndevs/1", "ens224");

  const auto devices = rdma::describe_devices(cls);
  ASSERT_EQ(devices.size(), 1u);
  const auto& d = devices[0];
  EXPECT_EQ(d.name, "vmw_pvrdma0");
  EXPECT_EQ(d.provider, "vmw_pvrdma");
  EXPECT_EQ(d.driver, "vmw_pvrdma");
  EXPECT_EQ(d.node_type, "CA");
  EXPECT_EQ(d.firmware, "3.0.0");
  ASSERT_TRUE(d.numa_node);
  EXPECT_EQ(*d.numa_node, 1);
  EXPECT_EQ(d.pci_address, "0000:0b:00.1");
  ASSERT_EQ(d.ports.size(), 1u);
  EXPECT_EQ(d.ports[0].state, "ACTIVE");
  EXPECT_EQ(d.ports[0].netdevs, std::vector<std::string>{"ens224"});
  ASSERT_TRUE(d.ports[0].rate);
  EXPECT_DOUBLE_EQ(d.ports[0].rate->gbyte_per_s, 12.5);

  const auto j = rdma::to_json(d);
  EXPECT_EQ(j["ports"][0]["label"], "PVRDMA (VMware paravirtual) over RoCE");
  EXPECT_EQ(j["numa_node"], 1);
  EXPECT_EQ(j["ports"][0]["line_rate_gbit_s"], 100.0);
}

TEST(RdmaDeviceInfo, SoftRoceWithoutPciDeviceAndNoNuma) {
  fixture_dir f;
  f.write("class/rxe0/node_type", "1: CA");
  f.write("class/rxe0/ports/1/state", "4: ACTIVE");
  f.write("class/rxe0/ports/1/link_layer", "Ethernet");
  const auto devices = rdma::describe_devices(f.root() / "class");
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].provider, "rxe");
  EXPECT_FALSE(devices[0].numa_node);
  EXPECT_TRUE(rdma::to_json(devices[0])["numa_node"].is_null());
}

TEST(RdmaDeviceInfo, NoSysfsClassMeansNoDevices) {
  EXPECT_TRUE(rdma::describe_devices("/nonexistent/gpubench/infiniband").empty());
}

TEST(RdmaDeviceInfo, ProvidersAndLabels) {
  EXPECT_EQ(rdma::provider_from("mlx5_core", "mlx5_0"), "mlx5");
  EXPECT_EQ(rdma::provider_from("", "rxe0"), "rxe");
  EXPECT_EQ(rdma::provider_from("", "vmw_pvrdma0"), "vmw_pvrdma");
  EXPECT_EQ(rdma::provider_from("", "siw_eth0"), "siw");
  EXPECT_EQ(rdma::provider_from("", "newdev_3"), "newdev");
  EXPECT_EQ(rdma::provider_from("bnxt_en", "bnxt_re0"), "bnxt_re");
  EXPECT_EQ(rdma::path_label("mlx5", "CA", "InfiniBand", "200 Gb/sec (4X HDR)"),
            "InfiniBand HDR (mlx5)");
  EXPECT_EQ(rdma::path_label("mlx5", "CA", "Ethernet", "100 Gb/sec (4X EDR)"),
            "NVIDIA ConnectX (mlx5) over RoCE");
  EXPECT_EQ(rdma::path_label("rxe", "CA", "Ethernet", ""), "Soft-RoCE (rxe) over RoCE");
  EXPECT_EQ(rdma::path_label("siw", "RNIC", "Ethernet", ""), "Soft-iWARP (siw) over iWARP");
  EXPECT_EQ(rdma::path_label("mlx5", "CA", "InfiniBand", ""), "InfiniBand (mlx5)");
}

TEST(RdmaDeviceInfo, RdmaCoreVersionFromLibraryName) {
  EXPECT_EQ(rdma::rdma_core_version_from_path("/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0"),
            "44.0");
  EXPECT_FALSE(rdma::rdma_core_version_from_path("/usr/lib/libibverbs.so.1"));
}

TEST(RdmaDeviceInfo, ExpectedDeviceHoldsTheControlAddress) {
  // Two RoCE NICs; the route to the peer leaves from 198.18.1.1, which mlx5_1 holds.
  fixture_dir f;
  const fs::path cls = f.root() / "class";
  for (const char* dev : {"mlx5_0", "mlx5_1"}) {
    f.write(std::string("class/") + dev + "/ports/1/state", "4: ACTIVE");
    f.write(std::string("class/") + dev + "/ports/1/link_layer", "Ethernet");
    f.write(std::string("class/") + dev + "/ports/1/gids/0",
            "fe80:0000:0000:0000:0250:56ff:fe01:0203");
    f.write(std::string("class/") + dev + "/ports/1/gids/2",
            "0000:0000:0000:0000:0000:0000:0000:0000");
  }
  f.write("class/mlx5_0/ports/1/gids/3", "0000:0000:0000:0000:0000:ffff:c612:0001");
  f.write("class/mlx5_1/ports/1/gids/3", "0000:0000:0000:0000:0000:ffff:c612:0101");
  const auto devices = rdma::describe_devices(cls);
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[1].ports[0].gids.size(), 2u) << "zero GIDs are left out";
  EXPECT_EQ(rdma::expected_device(devices, 1, "198.18.1.1"), "mlx5_1");
  EXPECT_EQ(rdma::expected_device(devices, 1, "198.18.0.1"), "mlx5_0");
  // Loopback: nobody holds 127.0.0.1, so the first active device, as before.
  EXPECT_EQ(rdma::expected_device(devices, 1, "127.0.0.1"), "mlx5_0");
  EXPECT_EQ(rdma::expected_device({}, 1, "127.0.0.1"), "");
}
