// RDMA device description from a sysfs fixture: provider, link layer, rate, NUMA node,
// and the labels a report prints.
#include <gtest/gtest.h>

#include <filesystem>

#include "sysfs_fixture.hpp"
#include "transports/rdma/device_choice.hpp"
#include "transports/rdma/device_info.hpp"
#include "transports/rdma/system_info.hpp"

namespace rdma = gpubench::transports::rdma;
namespace fs = std::filesystem;

using fixture_dir = gpubench::test::sysfs_fixture;

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

TEST(RdmaDeviceInfo, ChosenDeviceHoldsTheControlAddress) {
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
  const auto choose = [&](const std::string& address, bool loopback) {
    rdma::control_path path;
    path.local_address = address;
    path.loopback = loopback;
    return rdma::choose_device(devices, 1, path);
  };
  EXPECT_EQ(choose("198.18.1.1", false).device, "mlx5_1");
  EXPECT_EQ(choose("198.18.0.1", false).device, "mlx5_0");
  EXPECT_NE(choose("198.18.0.1", false).why.find("GID table holds 198.18.0.1"), std::string::npos);
  // Loopback: nobody holds 127.0.0.1; both QPs are on this host, so the first active device.
  const auto loop = choose("127.0.0.1", true);
  EXPECT_EQ(loop.device, "mlx5_0");
  EXPECT_FALSE(loop.refused);
  EXPECT_NE(loop.why.find("loopback"), std::string::npos) << loop.why;
  EXPECT_EQ(rdma::choose_device({}, 1, {}).device, "");
  EXPECT_FALSE(rdma::choose_device({}, 1, {}).refused);
}

TEST(RdmaDeviceInfo, NetdevOfARocePortAndItsSpeed) {
  fixture_dir f;
  f.link("class/infiniband/mlx5_0/device", f.root() / "pci" / "0000:3b:00.0");
  f.mkdir("pci/0000:3b:00.0/net/ens1f0np0");
  f.write("class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE");
  f.write("class/infiniband/mlx5_0/ports/1/link_layer", "Ethernet");
  f.write("class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0", "ens1f0np0");
  f.write("class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/3", "ens1f0np0.100");
  f.write("class/infiniband/mlx5_1/ports/1/state", "4: ACTIVE");
  f.link("class/infiniband/mlx5_1/device", f.root() / "pci" / "0000:3b:00.1");
  f.mkdir("pci/0000:3b:00.1/net/ens1f1np1");
  const auto devices = rdma::describe_devices(f.root() / "class" / "infiniband");
  ASSERT_EQ(devices.size(), 2u);
  // The GID in use decides (a VLAN interface on index 3), else the port's first netdev.
  EXPECT_EQ(rdma::port_netdev(devices[0], 1, 3), "ens1f0np0.100");
  EXPECT_EQ(rdma::port_netdev(devices[0], 1, 1), "ens1f0np0");
  EXPECT_EQ(rdma::port_netdev(devices[0], 1, -1), "ens1f0np0");
  // No GID netdevs in sysfs: the interface of the same PCI function.
  EXPECT_EQ(rdma::port_netdev(devices[1], 1, 0), "ens1f1np1");

  f.write("net/ens1f0np0/speed", "40000");
  f.link("net/ens1f0np0/device/driver", f.root() / "drivers" / "mlx5_core");
  f.write("net/veth0/speed", "-1");
  const auto l = rdma::read_netdev_link("ens1f0np0", f.root() / "net");
  EXPECT_EQ(l.name, "ens1f0np0");
  EXPECT_EQ(l.speed_mbps, 40000);
  EXPECT_EQ(l.driver, "mlx5_core");
  EXPECT_FALSE(rdma::read_netdev_link("veth0", f.root() / "net").speed_mbps);
  EXPECT_FALSE(rdma::read_netdev_link("absent", f.root() / "net").speed_mbps);
}

TEST(RdmaDeviceInfo, IwarpDevicesConnectOnlyThroughRdmaCm) {
  EXPECT_TRUE(rdma::is_iwarp("siw", "RNIC"));
  EXPECT_TRUE(rdma::is_iwarp("irdma", "RNIC"));  // irdma's iWARP mode: node type decides
  EXPECT_TRUE(rdma::is_iwarp("cxgb4", ""));
  EXPECT_FALSE(rdma::is_iwarp("irdma", "CA"));  // irdma's RoCE mode
  EXPECT_FALSE(rdma::is_iwarp("rxe", "CA"));
  const auto why = rdma::iwarp_manual_refusal("siw0");
  EXPECT_NE(why.find("siw0 is an iWARP device"), std::string::npos) << why;
  EXPECT_NE(why.find("--rdma-cm on"), std::string::npos) << why;

  // From sysfs: a soft-iWARP device is recognised by its node type.
  fixture_dir f;
  f.write("class/siw0/node_type", "4: RNIC");
  const auto d = rdma::describe_devices(f.root() / "class");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(rdma::is_iwarp(d[0].provider, d[0].node_type));
}
