#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <thread>

#include "core/errors.hpp"
#include "transports/collective/child_process.hpp"
#include "transports/collective/launch_env.hpp"
#include "transports/collective/nccl_logic.hpp"
#include "transports/collective/net_interfaces.hpp"
#include "transports/collective/node_counts.hpp"
#include "transports/collective/self_launch.hpp"
#include "transports/collective/transport_config.hpp"
#include "transports/collective/watchdog.hpp"

using namespace gpubench;

namespace {
coll::env_lookup env_of(std::map<std::string, std::string> vars) {
  return [vars](const char* name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}
}  // namespace

TEST(CollLaunch, DetectsLaunchers) {
  EXPECT_FALSE(coll::detect_launch(env_of({})).launched);
  auto o =
      coll::detect_launch(env_of({{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "4"}}));
  EXPECT_TRUE(o.launched);
  EXPECT_EQ(o.rank, 3);
  EXPECT_EQ(o.size, 4);
  auto p = coll::detect_launch(env_of({{"PMI_RANK", "1"}, {"PMI_SIZE", "2"}}));
  EXPECT_EQ(p.launcher, "PMI");
  EXPECT_EQ(p.rank, 1);
  auto x = coll::detect_launch(env_of({{"PMIX_RANK", "0"}}));
  EXPECT_TRUE(x.launched);
  EXPECT_FALSE(
      coll::detect_launch(env_of({{"OMPI_COMM_WORLD_RANK", "x"}, {"OMPI_COMM_WORLD_SIZE", "4"}}))
          .launched);
}

TEST(CollLaunch, NodeCounts) {
  EXPECT_EQ(coll::default_node_counts(1), (std::vector<int>{1}));
  EXPECT_EQ(coll::default_node_counts(4), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(coll::default_node_counts(6), (std::vector<int>{1, 2, 4, 6}));
  EXPECT_EQ(coll::parse_node_counts("4,1,2,2", 4), (std::vector<int>{1, 2, 4}));
  EXPECT_THROW(coll::parse_node_counts("8", 4), core::usage_error);
  EXPECT_THROW(coll::parse_node_counts("1,,2", 4), core::usage_error);
  EXPECT_THROW(coll::parse_node_counts("0", 4), core::usage_error);
}

TEST(CollLaunch, MpiTransportFromOpenMpiSettings) {
  EXPECT_EQ(coll::mpi_transport(env_of({}), 1, false).label, "shm");
  EXPECT_EQ(coll::mpi_transport(env_of({}), 4, false).label, "tcp");
  EXPECT_EQ(coll::mpi_transport(env_of({}), 4, true).label, "auto");
  EXPECT_EQ(coll::mpi_transport(env_of({{"OMPI_MCA_btl", "self,tcp"}}), 1, true).label, "tcp");
  EXPECT_EQ(coll::mpi_transport(
                env_of({{"OMPI_MCA_btl", "self,vader,tcp"}, {"OMPI_MCA_pml", "ob1"}}), 4, true)
                .label,
            "tcp");
  EXPECT_EQ(coll::mpi_transport(env_of({{"OMPI_MCA_btl", "^openib,uct"}}), 4, true).label, "tcp");
  EXPECT_EQ(coll::mpi_transport(env_of({{"OMPI_MCA_btl", "self,vader,openib"}}), 4, true).label,
            "rdma");
  EXPECT_EQ(
      coll::mpi_transport(env_of({{"OMPI_MCA_pml", "ucx"}, {"UCX_TLS", "rc,sm,self"}}), 4, true)
          .label,
      "rdma");
  EXPECT_EQ(coll::mpi_transport(env_of({{"OMPI_MCA_pml", "ucx"}, {"UCX_TLS", "tcp,self"}}), 4, true)
                .label,
            "tcp");
  const auto c =
      coll::mpi_transport(env_of({{"OMPI_MCA_btl_tcp_if_include", "198.18.0.0/15"}}), 4, false);
  EXPECT_EQ(c.interfaces, (std::vector<std::string>{"198.18.0.0/15"}));
  EXPECT_EQ(c.settings["OMPI_MCA_btl_tcp_if_include"], "198.18.0.0/15");
}

TEST(CollLaunch, NcclTransportFromNcclSettings) {
  EXPECT_EQ(coll::nccl_transport(env_of({{"NCCL_NET", "Socket"}}), 1, true).label, "intra-node");
  EXPECT_EQ(coll::nccl_transport(env_of({{"NCCL_NET", "Socket"}}), 2, true).label, "tcp");
  EXPECT_EQ(
      coll::nccl_transport(env_of({{"NCCL_NET", "IB"}, {"NCCL_IB_HCA", "mlx5_0"}}), 2, true).label,
      "rdma");
  EXPECT_EQ(coll::nccl_transport(env_of({{"NCCL_IB_DISABLE", "1"}}), 2, true).label, "tcp");
  EXPECT_EQ(coll::nccl_transport(env_of({}), 2, false).label, "tcp");
  EXPECT_EQ(coll::nccl_transport(env_of({}), 2, true).label, "auto");
  EXPECT_EQ(coll::nccl_transport(env_of({{"NCCL_SOCKET_IFNAME", "eth1"}}), 2, false).interfaces,
            (std::vector<std::string>{"eth1"}));
}

TEST(CollLaunch, InterfaceSelection) {
  std::vector<coll::net_interface> all = {{"lo", {"127.0.0.1"}, -1, true, true},
                                          {"eth0", {"10.0.0.5"}, 1000, true, false},
                                          {"eth1", {"198.18.0.2"}, 100000, true, false},
                                          {"docker0", {"172.17.0.1"}, -1, true, false},
                                          {"eth2", {}, -1, false, false}};
  auto names = [](const std::vector<coll::net_interface>& v) {
    std::vector<std::string> n;
    for (const auto& i : v)
      n.push_back(i.name);
    return n;
  };
  EXPECT_EQ(names(coll::select_interfaces(all, {})),
            (std::vector<std::string>{"eth0", "eth1", "docker0"}));
  EXPECT_EQ(names(coll::select_interfaces(all, {"eth"})),
            (std::vector<std::string>{"eth0", "eth1"}));
  EXPECT_EQ(names(coll::select_interfaces(all, {"=eth1"})), (std::vector<std::string>{"eth1"}));
  EXPECT_EQ(names(coll::select_interfaces(all, {"198.18.0.0/15"})),
            (std::vector<std::string>{"eth1"}));
  EXPECT_EQ(names(coll::select_interfaces(all, {"^docker"})),
            (std::vector<std::string>{"eth0", "eth1"}));
  EXPECT_TRUE(coll::in_cidr("198.19.255.1", "198.18.0.0/15"));
  EXPECT_FALSE(coll::in_cidr("198.20.0.1", "198.18.0.0/15"));
  EXPECT_FALSE(coll::in_cidr("198.18.0.1", "198.18.0.0/40"));
}

TEST(CollLaunch, SelfLaunchCommandLine) {
  coll::self_launch_request r;
  r.self_exe = "/opt/gpubench";
  r.ranks = 4;
  r.sizes = "8:1M";
  r.check = true;
  r.as_root = true;
  const auto a = coll::launcher_argv(r, "mpirun", "/tmp/x/result.json");
  auto has = [&](const std::string& s) { return std::find(a.begin(), a.end(), s) != a.end(); };
  EXPECT_EQ(a[0], "mpirun");
  EXPECT_EQ(a[1], "-np");
  EXPECT_EQ(a[2], "4");
  EXPECT_TRUE(has("--oversubscribe"));
  EXPECT_TRUE(has("--allow-run-as-root"));
  EXPECT_TRUE(has("--check"));
  EXPECT_TRUE(has("/tmp/x/result.json"));
  EXPECT_TRUE(has("^coll\\.allreduce$"));
  r.open_mpi = false;
  r.check = false;
  const auto m = coll::launcher_argv(r, "mpiexec", "/r.json");
  EXPECT_EQ(std::find(m.begin(), m.end(), "--oversubscribe"), m.end());
  EXPECT_EQ(std::find(m.begin(), m.end(), "--check"), m.end());
}

TEST(CollNccl, DeviceForLocalRank) {
  std::string why;
  EXPECT_EQ(coll::device_for_local_rank(2, 4, why), 2);
  EXPECT_EQ(coll::device_for_local_rank(3, 1, why), 0) << "per-rank CUDA_VISIBLE_DEVICES";
  EXPECT_FALSE(coll::device_for_local_rank(5, 4, why));
  EXPECT_NE(why.find("only 4 GPUs"), std::string::npos);
  EXPECT_FALSE(coll::device_for_local_rank(0, 0, why));
}

TEST(CollNccl, LibraryCandidatesAndVersion) {
  EXPECT_EQ(coll::nccl_library_candidates(std::nullopt).front(), "libnccl.so.2");
  EXPECT_EQ(coll::nccl_library_candidates(std::string("/opt/nccl/lib/libnccl.so.2")),
            (std::vector<std::string>{"/opt/nccl/lib/libnccl.so.2"}));
  EXPECT_EQ(coll::nccl_version_text(22809), "2.28.9");
  EXPECT_EQ(coll::nccl_version_text(2804), "2.8.4");
}

TEST(CollLaunch, WatchdogFiresOnlyWithoutProgress) {
  std::atomic<int> fired{0};
  {
    coll::watchdog dog(std::chrono::milliseconds(300), [&](const std::string&) { ++fired; });
    for (int i = 0; i < 6; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      dog.beat("working");
    }
  }
  EXPECT_EQ(fired.load(), 0);
  std::string message;
  {
    coll::watchdog dog(std::chrono::milliseconds(50), [&](const std::string& m) {
      message = m;
      ++fired;
    });
    dog.beat("measuring 1 MiB");
    for (int i = 0; i < 100 && !dog.fired(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(fired.load(), 1);
  EXPECT_NE(message.find("measuring 1 MiB"), std::string::npos) << message;
}

TEST(CollLaunch, ChildProcessIsKilledAtItsDeadline) {
  const auto out = std::filesystem::temp_directory_path() / "gpubench-child-test.txt";
  {
    coll::child_process child({"sleep", "10"}, {}, out);
    const auto o = child.wait(0.2, nullptr);
    EXPECT_TRUE(o.timed_out);
    EXPECT_LT(o.seconds, 5.0);
  }
  {
    coll::child_process child({"sh", "-c", "echo said-this; exit 3"}, {}, out);
    const auto o = child.wait(10, nullptr);
    EXPECT_FALSE(o.timed_out);
    EXPECT_EQ(o.exit_code, 3);
    EXPECT_EQ(coll::file_tail(out), "said-this");
  }
  std::filesystem::remove(out);
}
