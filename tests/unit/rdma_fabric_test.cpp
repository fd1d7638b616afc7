// What an RDMA case must know of the fabric it runs on, from sysfs and provider fixtures: AWS
// EFA (no RC queue pairs) is skipped and labelled by its provider, a bonded RoCE device (LAG)
// takes one port's speed as its line rate, a port whose rate changed between points is judged
// by its own point's rate, and which asynchronous events fail a point. Also perftest's address
// cycling of small bandwidth messages.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sysfs_fixture.hpp"
#include "transports/rdma/async_event.hpp"
#include "transports/rdma/device_choice.hpp"
#include "transports/rdma/device_info.hpp"
#include "transports/rdma/params.hpp"
#include "transports/rdma/port_rate.hpp"

namespace rdma = gpubench::transports::rdma;

namespace {

bool holds(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(RdmaFabric, EfaHasNoRcAndIsLabelledByItsProvider) {
  // An EFA device as an EC2 instance's sysfs shows it: the efa driver, node type
  // "unspecified", a link layer that is neither InfiniBand nor Ethernet.
  gpubench::test::sysfs_fixture f;
  f.link("class/efa_0/device", f.root() / "pci" / "0000:10:1c.0");
  f.link("pci/0000:10:1c.0/driver", f.root() / "drivers" / "efa");
  f.write("class/efa_0/node_type", "7: unspecified");
  f.write("class/efa_0/ports/1/state", "4: ACTIVE");
  f.write("class/efa_0/ports/1/link_layer", "Unknown");
  f.write("class/efa_0/ports/1/rate", "100 Gb/sec (4X EDR)");
  const auto devices = rdma::describe_devices(f.root() / "class");
  ASSERT_EQ(devices.size(), 1u);
  const auto& d = devices[0];
  EXPECT_EQ(d.provider, "efa");
  EXPECT_FALSE(rdma::has_rc(d.provider, d.node_type));
  const auto label = rdma::to_json(d)["ports"][0]["label"].get<std::string>();
  EXPECT_EQ(label, "AWS Elastic Fabric Adapter (efa), SRD only");
  EXPECT_FALSE(holds(label, "InfiniBand")) << label;
  // The one active device is the one chosen, and then every case is skipped saying why.
  EXPECT_EQ(rdma::choose_device(devices, 1, rdma::control_path{}).device, "efa_0");
  const auto why = rdma::no_rc_refusal(d.name, d.provider);
  EXPECT_TRUE(holds(why, "efa_0 (AWS Elastic Fabric Adapter (efa)) has no reliable-connected"))
      << why;
  EXPECT_TRUE(holds(why, "-c SRD")) << why;

  // The node type alone tells (a provider gpubench does not know), and RC devices stay RC.
  EXPECT_FALSE(rdma::has_rc("newfab", "unspecified"));
  EXPECT_FALSE(rdma::has_rc("usnic", "usNIC UDP"));
  for (const char* p : {"mlx5", "rxe", "vmw_pvrdma", "bnxt_re", "irdma", "siw"})
    EXPECT_TRUE(rdma::has_rc(p, "CA")) << p;
  EXPECT_EQ(rdma::path_label("mlx5", "CA", "InfiniBand", "200 Gb/sec (4X HDR)"),
            "InfiniBand HDR (mlx5)");
  EXPECT_EQ(rdma::path_label("newfab", "CA", "Unknown", ""), "newfab (link layer Unknown)");
}

TEST(RdmaFabric, BondedRoceTakesOnePortsSpeed) {
  // mlx5_bond_0 on bond0 (two 100 GbE ports): bond0's speed is their sum, 200000, but one RC
  // queue pair runs on one port, so the line rate is 100 Gb/s and the basis says so.
  gpubench::test::sysfs_fixture f;
  f.write("net/bond0/speed", "200000");
  f.write("net/bond0/bonding/slaves", "ens1f0np0 ens1f1np1");
  f.write("net/ens1f0np0/speed", "100000");
  f.write("net/ens1f1np1/speed", "100000");
  f.link("net/ens1f0np0/device/driver", f.root() / "drivers" / "mlx5_core");
  const auto bond = rdma::read_netdev_link("bond0", f.root() / "net");
  EXPECT_EQ(bond.speed_mbps, 200000);
  EXPECT_EQ(bond.bond_ports, (std::vector<std::string>{"ens1f0np0", "ens1f1np1"}));
  EXPECT_EQ(bond.bond_port, "ens1f0np0");
  EXPECT_EQ(bond.bond_port_speed_mbps, 100000);
  const auto r = rdma::port_line_rate(true, 64, 2, "200 Gb/sec (4X HDR)", bond);
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->gbit_per_s, 100.0);
  EXPECT_DOUBLE_EQ(r->gbyte_per_s, 12.5);
  EXPECT_TRUE(holds(r->basis,
                    "one port of the bond bond0 (ens1f0np0, ens1f1np1; 200000 Mb/s "
                    "all together): ens1f0np0 100000 Mb/s"))
      << r->basis;
  EXPECT_TRUE(holds(r->basis, "one RC queue pair runs on one port")) << r->basis;

  // A port whose speed is unknown (down) is passed over; no port with a speed: the bond's.
  f.write("net/bond1/speed", "50000");
  f.write("net/bond1/bonding/slaves", "eth2 eth3");
  f.write("net/eth2/speed", "-1");
  f.write("net/eth3/speed", "25000");
  EXPECT_EQ(rdma::read_netdev_link("bond1", f.root() / "net").bond_port, "eth3");
  f.write("net/bond2/speed", "50000");
  f.write("net/bond2/bonding/slaves", "eth4");
  const auto unknown = rdma::read_netdev_link("bond2", f.root() / "net");
  EXPECT_FALSE(unknown.bond_port_speed_mbps);
  EXPECT_DOUBLE_EQ(rdma::port_line_rate(true, 0, 0, "", unknown)->gbit_per_s, 50.0);
  // A plain netdev is no bond.
  f.write("net/eth5/speed", "100000");
  EXPECT_TRUE(rdma::read_netdev_link("eth5", f.root() / "net").bond_ports.empty());
}

TEST(RdmaFabric, PortRateChangeIsJudgedAgainstItsOwnPoint) {
  // An InfiniBand port that renegotiates from HDR to HDR100 mid-run, and a RoCE port from
  // 200 GbE to 100 GbE, as sysfs says before and after.
  gpubench::test::sysfs_fixture f;
  f.write("class/mlx5_0/ports/1/rate", "200 Gb/sec (4X HDR)");
  f.write("class/mlx5_0/ports/1/link_layer", "InfiniBand");
  auto ib = [&] {
    return rdma::port_line_rate(false, 0, 0,
                                rdma::describe_devices(f.root() / "class")[0].ports[0].rate_text,
                                std::nullopt);
  };
  const auto start = ib();
  f.write("class/mlx5_0/ports/1/rate", "100 Gb/sec (2X HDR)");
  const auto now = ib();
  ASSERT_TRUE(start && now);
  const auto change = rdma::rate_change(start, now);
  ASSERT_TRUE(change);
  EXPECT_TRUE(holds(*change, "200 Gb/s at the case's start, 100 Gb/s at this point")) << *change;
  EXPECT_TRUE(holds(*change, "2X HDR")) << *change;
  EXPECT_FALSE(rdma::rate_change(start, start));

  f.write("net/ens1f0np0/speed", "200000");
  const auto roce0 =
      rdma::port_line_rate(true, 0, 0, "", rdma::read_netdev_link("ens1f0np0", f.root() / "net"));
  f.write("net/ens1f0np0/speed", "100000");
  const auto roce1 =
      rdma::port_line_rate(true, 0, 0, "", rdma::read_netdev_link("ens1f0np0", f.root() / "net"));
  ASSERT_TRUE(rdma::rate_change(roce0, roce1));
  // A point at 11 GB/s is 88 % of the 12.5 GB/s it ran at, not 44 % of the case's 25.
  EXPECT_DOUBLE_EQ(11.0 / roce1->gbyte_per_s, 0.88);
  // Unknown either side, or the same rate: nothing to say.
  EXPECT_FALSE(rdma::rate_change(std::nullopt, roce1));
  EXPECT_FALSE(rdma::rate_change(roce1, std::nullopt));
  EXPECT_FALSE(rdma::rate_change(roce1, roce1));
}

TEST(RdmaFabric, PortAndQueueErrorsFailThePointNamingTheEvent) {
  rdma::async_event down{"IBV_EVENT_PORT_ERR", "port error", "port 1", true, false};
  EXPECT_TRUE(rdma::fails_point(down.name, true));
  const auto why = rdma::failure_of({down}, "rxe0", "send completion failed: retry exceeded");
  ASSERT_TRUE(why);
  EXPECT_EQ(*why,
            "asynchronous event IBV_EVENT_PORT_ERR (port error) on port 1 of rxe0: send "
            "completion failed: retry exceeded");
  // Another port of the device, or an event that is only news, is recorded, not a failure.
  rdma::async_event other = down;
  other.element = "port 2";
  other.ours = false;
  rdma::async_event est{"IBV_EVENT_COMM_EST", "communication established", "QP 0x11", true, false};
  rdma::async_event up{"IBV_EVENT_PORT_ACTIVE", "port active", "port 1", true, true};
  EXPECT_FALSE(rdma::failure_of({other, est, up}, "rxe0"));
  EXPECT_EQ(rdma::to_json(other)["other"], true);
  EXPECT_EQ(rdma::to_json(up)["when"], "between points");
  for (const char* fatal : {"IBV_EVENT_QP_FATAL", "IBV_EVENT_QP_REQ_ERR", "IBV_EVENT_QP_ACCESS_ERR",
                            "IBV_EVENT_CQ_ERR"})
    EXPECT_TRUE(rdma::fails_point(fatal, true)) << fatal;
  // The device lost fails every point, whatever it names.
  EXPECT_TRUE(rdma::fails_point("IBV_EVENT_DEVICE_FATAL", false));
  for (const char* news : {"IBV_EVENT_LID_CHANGE", "IBV_EVENT_GID_CHANGE", "IBV_EVENT_SM_CHANGE",
                           "IBV_EVENT_CLIENT_REREGISTER", "IBV_EVENT_PKEY_CHANGE"})
    EXPECT_FALSE(rdma::fails_point(news, true)) << news;
}

TEST(RdmaFabric, SmallBandwidthMessagesCycleThroughAPageByCacheLine) {
  // perftest: up to half a page, each work request the size rounded up to 64 B further on.
  EXPECT_EQ(rdma::cycle_offset(2, 0, 1 << 20), 0u);
  EXPECT_EQ(rdma::cycle_offset(2, 1, 1 << 20), 64u);
  EXPECT_EQ(rdma::cycle_offset(2, 63, 1 << 20), 4032u);
  EXPECT_EQ(rdma::cycle_offset(2, 64, 1 << 20), 0u);  // back at the start of the page
  EXPECT_EQ(rdma::cycle_offset(100, 1, 1 << 20), 128u);
  EXPECT_EQ(rdma::cycle_offset(2048, 1, 1 << 20), 2048u);
  EXPECT_EQ(rdma::cycle_offset(2048, 2, 1 << 20), 0u);
  EXPECT_EQ(rdma::cycle_offset(2049, 1, 1 << 20), 0u);  // larger: always the start
  EXPECT_EQ(rdma::cycle_offset(65536, 7, 1 << 20), 0u);
  // Every message stays inside both sides' buffers, however small they are.
  for (std::uint64_t space : {64u, 100u, 1024u, 4096u, 1u << 20})
    for (std::uint64_t size : {1u, 2u, 64u, 65u, 512u, 2048u})
      for (std::uint64_t i = 0; i < 200; ++i) {
        if (size > space) continue;
        EXPECT_LE(rdma::cycle_offset(size, i, space) + size, space)
            << size << " B #" << i << " in " << space;
      }
  std::set<std::uint64_t> offsets;
  for (std::uint64_t i = 0; i < 64; ++i)
    offsets.insert(rdma::cycle_offset(8, i, 1 << 20));
  EXPECT_EQ(offsets.size(), 64u);  // 64 distinct cache lines before the first repeats
}
