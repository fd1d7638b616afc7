// Which RDMA device a case uses without --rdma-device, from sysfs fixture trees: a DGX-like
// host with four InfiniBand compute rails and a storage rail, where the IPoIB interface of the
// control connection decides, and where nothing does and the choice is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sysfs_fixture.hpp"
#include "transports/rdma/device_choice.hpp"
#include "transports/rdma/device_info.hpp"

namespace rdma = gpubench::transports::rdma;
namespace fs = std::filesystem;

namespace {

// mlx5_0..mlx5_4, one InfiniBand port each, under PCI functions 0000:N:00.0, with IPoIB
// interfaces ib0..ib4 on them (the netdev's device link is the same PCI function), and a
// management Ethernet interface eno1 with no RDMA device. `down` has its port down.
class dgx_host {
 public:
  explicit dgx_host(int down = -1) {
    for (int i = 0; i < 5; ++i) {
      const std::string dev = "mlx5_" + std::to_string(i);
      const std::string pci = "0000:" + std::to_string(10 + i) + ":00.0";
      const fs::path pci_dir = m_f.root() / "devices" / pci;
      m_f.mkdir(fs::path("devices") / pci / "infiniband" / dev);
      m_f.link("class/infiniband/" + dev + "/device", pci_dir);
      m_f.write("class/infiniband/" + dev + "/node_type", "1: CA");
      m_f.write("class/infiniband/" + dev + "/ports/1/state", i == down ? "1: DOWN" : "4: ACTIVE");
      m_f.write("class/infiniband/" + dev + "/ports/1/link_layer", "InfiniBand");
      m_f.write("class/infiniband/" + dev + "/ports/1/rate", "400 Gb/sec (4X NDR)");
      m_f.write("class/infiniband/" + dev + "/ports/1/gids/0",
                "fe80:0000:0000:0000:a088:c203:0000:000" + std::to_string(i));
      const std::string ib = "ib" + std::to_string(i);
      m_f.link("class/net/" + ib + "/device", pci_dir);
      m_f.write("class/net/" + ib + "/type", "32");
    }
    m_f.write("class/net/eno1/type", "1");
    // An IPoIB pkey child of ib1: no device link, its hardware address ends in mlx5_1's GID.
    m_f.write("class/net/ib1.8001/type", "32");
    m_f.write("class/net/ib1.8001/address",
              "00:00:10:49:fe:80:00:00:00:00:00:00:a0:88:c2:03:00:00:00:01");
  }

  fs::path net() const { return m_f.root() / "class" / "net"; }
  fs::path ib() const { return m_f.root() / "class" / "infiniband"; }
  std::vector<rdma::device_description> devices() const { return rdma::describe_devices(ib()); }

  rdma::control_path path(const std::string& address, const std::string& interface) const {
    rdma::control_path p;
    p.local_address = address;
    p.interface = interface;
    p.devices = rdma::devices_of_interface(interface, net(), ib());
    return p;
  }

 private:
  gpubench::test::sysfs_fixture m_f;
};

}  // namespace

TEST(RdmaDeviceChoice, InterfaceOfTheControlConnectionMapsToItsDevice) {
  dgx_host host;
  EXPECT_EQ(rdma::devices_of_interface("ib2", host.net(), host.ib()),
            std::vector<std::string>{"mlx5_2"});
  EXPECT_TRUE(rdma::devices_of_interface("eno1", host.net(), host.ib()).empty());
  EXPECT_TRUE(rdma::devices_of_interface("", host.net(), host.ib()).empty());

  // InfiniBand GIDs are not IP addresses: before, every rail fell back to mlx5_0.
  const auto c = rdma::choose_device(host.devices(), 1, host.path("10.2.0.7", "ib2"));
  EXPECT_EQ(c.device, "mlx5_2");
  EXPECT_FALSE(c.refused);
  EXPECT_NE(c.why.find("interface ib2 (10.2.0.7"), std::string::npos) << c.why;
  EXPECT_EQ(rdma::choose_device(host.devices(), 1, host.path("10.4.0.7", "ib4")).device, "mlx5_4");
}

TEST(RdmaDeviceChoice, IpoibChildInterfaceFoundByTheGidInItsAddress) {
  dgx_host host;
  EXPECT_EQ(rdma::devices_of_interface("ib1.8001", host.net(), host.ib()),
            std::vector<std::string>{"mlx5_1"});
  EXPECT_EQ(rdma::choose_device(host.devices(), 1, host.path("10.1.0.7", "ib1.8001")).device,
            "mlx5_1");
}

TEST(RdmaDeviceChoice, SeveralActiveAndNoneOnThePathIsRefusedNamingThem) {
  dgx_host host;
  // The peer is reached over the management network: no RDMA device on that path.
  const auto c = rdma::choose_device(host.devices(), 1, host.path("192.0.2.10", "eno1"));
  EXPECT_TRUE(c.refused);
  EXPECT_EQ(c.device, "");
  for (const char* name : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "--rdma-device",
                           "--peer-rdma-device", "192.0.2.10 (interface eno1)"})
    EXPECT_NE(c.why.find(name), std::string::npos) << name << " not in: " << c.why;
}

TEST(RdmaDeviceChoice, InterfaceOnADownPortDoesNotDecide) {
  dgx_host host(2);  // mlx5_2's port is down
  const auto c = rdma::choose_device(host.devices(), 1, host.path("10.2.0.7", "ib2"));
  EXPECT_TRUE(c.refused);
  EXPECT_NE(c.why.find("(mlx5_0, mlx5_1, mlx5_3, mlx5_4)"), std::string::npos) << c.why;
  EXPECT_NE(c.why.find("ib2 sits on mlx5_2, whose port 1 is not active"), std::string::npos)
      << c.why;
}

TEST(RdmaDeviceChoice, OnlyActiveDeviceAndLoopback) {
  gpubench::test::sysfs_fixture f;
  f.write("ib/mlx5_0/ports/1/state", "1: DOWN");
  f.write("ib/mlx5_1/ports/1/state", "4: ACTIVE");
  f.write("ib/mlx5_1/ports/2/state", "4: ACTIVE");
  f.write("ib/mlx5_2/ports/1/state", "4: ACTIVE");
  const auto devices = rdma::describe_devices(f.root() / "ib");
  rdma::control_path path;
  path.local_address = "192.0.2.10";
  // Port 2 is active on one device only: it is used whatever the address.
  const auto only = rdma::choose_device(devices, 2, path);
  EXPECT_EQ(only.device, "mlx5_1");
  EXPECT_NE(only.why.find("the only device with an active port 2"), std::string::npos);
  EXPECT_TRUE(rdma::choose_device(devices, 1, path).refused);
  // In loopback both queue pairs are on this host: any device serves, the first active one.
  path.local_address = "127.0.0.1";
  path.loopback = true;
  const auto loop = rdma::choose_device(devices, 1, path);
  EXPECT_EQ(loop.device, "mlx5_1");
  EXPECT_NE(loop.why.find("others: mlx5_2"), std::string::npos) << loop.why;
  // No port 3 anywhere: nothing chosen, nothing refused (opening reports it).
  EXPECT_EQ(rdma::choose_device(devices, 3, path).device, "");
  EXPECT_FALSE(rdma::choose_device(devices, 3, path).refused);
}

TEST(RdmaDeviceChoice, ControlPathOfLoopbackAddress) {
  const auto p = rdma::control_path_for("127.0.0.1");
  EXPECT_TRUE(p.loopback);
  EXPECT_EQ(p.local_address, "127.0.0.1");
  EXPECT_FALSE(rdma::control_path_for("").loopback);
}
