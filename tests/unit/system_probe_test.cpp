// The system probe on fixture trees shaped like real machines (tests/golden/sysfs-*: a VMware
// VM with vmxnet3, a KVM guest with virtio-net and a container bridge, a two-socket bare-metal
// host with a 100G ConnectX-6 on NUMA node 1), and on this machine.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/system/nic_probe.hpp"
#include "core/system/sysfs.hpp"
#include "core/system/system_probe.hpp"

namespace gpubench::core {
namespace {

const std::filesystem::path golden = GPUBENCH_TEST_DATA;

probe_roots fixture(const std::string& name, const std::string& signature) {
  const auto root = golden / ("sysfs-" + name);
  probe_roots r;
  r.sys = root / "sys";
  r.proc = root / "proc";
  r.etc = root / "etc";
  r.hwloc_xml = root / "hwloc.xml";
  r.hypervisor_signature = signature;
  r.ipv4 = std::map<std::string, std::vector<std::string>>{};
  return r;
}

const nlohmann::json& nic(const nlohmann::json& system, const std::string& name) {
  for (const auto& n : system.at("nics"))
    if (n.at("name") == name) return n;
  throw std::runtime_error("no NIC " + name + " in " + system.at("nics").dump());
}

void expect_family_keys(const nlohmann::json& s) {
  ASSERT_TRUE(s.at("gpus").is_array());
  ASSERT_TRUE(s.at("rdma_devices").is_array());
  ASSERT_TRUE(s.at("nics").is_array());
  ASSERT_TRUE(s.at("software").is_object());
  for (const auto& n : s.at("nics"))
    EXPECT_NE(n.at("name"), "lo");
}

TEST(SystemProbe, VmwareGuestWithVmxnet3) {
  auto roots = fixture("vmware", "VMwareVMware");
  roots.ipv4->emplace("ens192", std::vector<std::string>{"198.18.0.10/24"});
  const auto s = probe_system(roots);
  expect_family_keys(s);
  EXPECT_EQ(s.at("virtualization"), "vmware");
  EXPECT_EQ(s.at("platform").at("vendor"), "VMware, Inc.");
  EXPECT_EQ(s.at("host"), "gpu-vm-01");
  EXPECT_EQ(s.at("os"), "Ubuntu 22.04.4 LTS");
  EXPECT_EQ(s.at("kernel"), "Linux 5.15.0-105-generic");
  EXPECT_EQ(s.at("arch"), "x86_64");
  EXPECT_EQ(s.at("cpu").at("model"), "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz");
  EXPECT_EQ(s.at("cpu").at("logical_cpus"), 8);
  EXPECT_EQ(s.at("cpu").at("sockets"), 1);
  EXPECT_EQ(s.at("cpu").at("cores"), 8);
  EXPECT_EQ(s.at("memory_bytes"), 65808364ull * 1024);
  EXPECT_EQ(s.at("numa_nodes"), 1);
  ASSERT_EQ(s.at("nics").size(), 2u);
  const auto& ens = nic(s, "ens192");
  EXPECT_EQ(ens.at("driver"), "vmxnet3");
  EXPECT_EQ(ens.at("kind"), "physical");
  EXPECT_EQ(ens.at("virtual"), false);
  EXPECT_EQ(ens.at("speed_mbps"), 10000);
  EXPECT_EQ(ens.at("mtu"), 1500);
  EXPECT_EQ(ens.at("pci"), "0000:0b:00.0");
  EXPECT_EQ(ens.at("pcie_link"), "5.0 GT/s PCIe x32");
  EXPECT_FALSE(ens.contains("numa_node")) << "numa_node -1 means unknown, not node -1";
  EXPECT_EQ(ens.at("ipv4"), nlohmann::json({"198.18.0.10/24"}));
  const auto& docker = nic(s, "docker0");
  EXPECT_EQ(docker.at("kind"), "bridge");
  EXPECT_EQ(docker.at("virtual"), true);
  EXPECT_FALSE(docker.contains("speed_mbps"));
  EXPECT_EQ(s.at("software").at("nvidia_driver"), "550.54.15");
}

TEST(SystemProbe, VmwareFoundByDmiWhenTheHypervisorBitIsHidden) {
  const auto v = probe_virtualization(fixture("vmware", ""));
  EXPECT_EQ(v.at("virtualization"), "vmware");
  EXPECT_FALSE(v.at("platform").contains("hypervisor_signature"));
}

TEST(SystemProbe, KvmGuestWithVirtioAndContainerBridge) {
  const auto s = probe_system(fixture("kvm", "KVMKVMKVM"));
  expect_family_keys(s);
  EXPECT_EQ(s.at("virtualization"), "kvm");
  EXPECT_EQ(s.at("platform").at("hypervisor_signature"), "KVMKVMKVM");
  EXPECT_EQ(s.at("cpu").at("threads"), 8);
  EXPECT_EQ(s.at("cpu").at("cores"), 4);
  const auto& enp = nic(s, "enp1s0");
  EXPECT_EQ(enp.at("driver"), "virtio_net");
  EXPECT_EQ(enp.at("pci"), "0000:01:00.0") << "the PCI function above the virtio device";
  EXPECT_FALSE(enp.contains("speed_mbps")) << "virtio reports -1: unknown";
  EXPECT_FALSE(enp.contains("pcie_link"));
  const auto& veth = nic(s, "veth3f2a1");
  EXPECT_EQ(veth.at("kind"), "veth");
  EXPECT_EQ(veth.at("master"), "br0");
  EXPECT_EQ(nic(s, "br0").at("kind"), "bridge");
  EXPECT_FALSE(s.at("software").contains("nvidia_driver"));
}

TEST(SystemProbe, QemuWithoutKvmIsNamedByItsSignature) {
  EXPECT_EQ(probe_virtualization(fixture("kvm", "TCGTCGTCGTCG")).at("virtualization"), "qemu");
  EXPECT_EQ(probe_virtualization(fixture("kvm", "")).at("virtualization"), "qemu") << "DMI alone";
  EXPECT_EQ(probe_virtualization(fixture("kvm", "NewVisor")).at("virtualization"),
            "unknown hypervisor (NewVisor)");
}

// A small tree of DMI and hypervisor files in a temporary directory, removed afterwards.
class dmi_tree {
 public:
  dmi_tree() {
    m_root = std::filesystem::temp_directory_path() /
             ("gpubench-dmi-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(m_root / "class" / "dmi" / "id");
    std::filesystem::create_directories(m_root / "hypervisor");
  }
  ~dmi_tree() {
    std::error_code ec;
    std::filesystem::remove_all(m_root, ec);
  }
  void write(const std::string& rel, const std::string& value) const {
    std::ofstream(m_root / rel) << value << "\n";
  }
  probe_roots roots(const std::string& signature) const {
    probe_roots r;
    r.sys = m_root;
    r.hypervisor_signature = signature;
    return r;
  }

 private:
  std::filesystem::path m_root;
};

TEST(SystemProbe, DmiNamesMatchOnlyAtTheStart) {
  const dmi_tree t;
  t.write("class/dmi/id/sys_vendor", "Supermicro");
  t.write("class/dmi/id/product_name", "Xeon Scalable Server SYS-2029");
  t.write("class/dmi/id/board_vendor", "Supermicro");
  EXPECT_EQ(probe_virtualization(t.roots("")).at("virtualization"), "none");
}

TEST(SystemProbe, XenParavirtualGuestFromSysHypervisor) {
  const dmi_tree t;
  t.write("hypervisor/type", "xen");
  EXPECT_EQ(probe_virtualization(t.roots("")).at("virtualization"), "xen");
}

TEST(SystemProbe, CloudNamedByDmiOverKvm) {
  const dmi_tree t;
  t.write("class/dmi/id/sys_vendor", "Amazon EC2");
  t.write("class/dmi/id/product_name", "m6i.large");
  EXPECT_EQ(probe_virtualization(t.roots("KVMKVMKVM")).at("virtualization"), "amazon");
}

TEST(SystemProbe, BareMetalWithConnectX6OnNumaOne) {
  const auto s = probe_system(fixture("baremetal", ""));
  expect_family_keys(s);
  EXPECT_EQ(s.at("virtualization"), "none");
  EXPECT_EQ(s.at("platform").at("product"), "PowerEdge R740xd");
  EXPECT_EQ(s.at("cpu").at("sockets"), 2);
  EXPECT_EQ(s.at("cpu").at("cores"), 40);
  EXPECT_EQ(s.at("cpu").at("threads"), 80);
  EXPECT_EQ(s.at("cpu").at("logical_cpus"), 80);
  ASSERT_EQ(s.at("numa_nodes"), 2);
  const auto& node1 = s.at("numa").at(1);
  EXPECT_EQ(node1.at("node"), 1);
  EXPECT_EQ(node1.at("cpus"), "40-79");
  EXPECT_EQ(node1.at("memory_bytes"), 206158430208ull);
  EXPECT_EQ(node1.at("distances"), nlohmann::json({21, 10}));
  const auto& cx6 = nic(s, "ens6f0np0");
  EXPECT_EQ(cx6.at("driver"), "mlx5_core");
  EXPECT_EQ(cx6.at("speed_mbps"), 100000);
  EXPECT_EQ(cx6.at("numa_node"), 1);
  EXPECT_EQ(cx6.at("pci"), "0000:d8:00.0");
  EXPECT_EQ(cx6.at("pcie_link"), "8.0 GT/s PCIe x16");
  EXPECT_EQ(cx6.at("mtu"), 9000);
  EXPECT_EQ(cx6.at("rdma_devices"), nlohmann::json({"mlx5_0"}));
  const auto& down = nic(s, "ens6f1np1");
  EXPECT_EQ(down.at("operstate"), "down");
  EXPECT_FALSE(down.contains("speed_mbps"));
  EXPECT_EQ(nic(s, "eno1").at("numa_node"), 0);
  EXPECT_EQ(s.at("software").at("nvidia_driver"), "535.161.08");
}

TEST(SystemProbe, OneNicByName) {
  const auto roots = fixture("baremetal", "");
  const auto cx6 = probe_nic(roots, "ens6f0np0");
  ASSERT_TRUE(cx6.has_value());
  EXPECT_EQ(cx6->speed_mbps, 100000);
  EXPECT_FALSE(probe_nic(roots, "eth9").has_value());
  EXPECT_FALSE(probe_nic(roots, "../../class").has_value());
  EXPECT_FALSE(probe_nic(roots, "").has_value());
  EXPECT_FALSE(probe_nic(roots, "..").has_value());
}

TEST(SystemProbe, CpuLists) {
  EXPECT_EQ(count_cpu_list("0-3,8,10-11"), 7u);
  EXPECT_EQ(count_cpu_list("5"), 1u);
  EXPECT_FALSE(count_cpu_list("3-1").has_value());
  EXPECT_FALSE(count_cpu_list("0-").has_value());
  EXPECT_FALSE(count_cpu_list("x").has_value());
}

// This machine: only what must hold anywhere.
TEST(SystemProbe, ThisMachine) {
  const auto s = probe_system();
  expect_family_keys(s);
  EXPECT_FALSE(s.at("host").get<std::string>().empty());
  EXPECT_EQ(s.at("cpu").at("logical_cpus"), ::sysconf(_SC_NPROCESSORS_ONLN));
  EXPECT_GE(s.at("cpu").at("threads").get<int>(), s.at("cpu").at("cores").get<int>());
  EXPECT_GE(s.at("numa_nodes").get<int>(), 1);
  EXPECT_GT(s.at("memory_bytes").get<unsigned long long>(), 0u);
  EXPECT_FALSE(s.at("virtualization").get<std::string>().empty());
  EXPECT_TRUE(s.at("software").contains("compiler"));
  for (const auto& n : s.at("nics"))
    EXPECT_TRUE(std::filesystem::exists("/sys/class/net/" + n.at("name").get<std::string>()));
}

}  // namespace
}  // namespace gpubench::core
