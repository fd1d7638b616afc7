#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <thread>

#include "benchmarks/collectives/child_process.hpp"
#include "benchmarks/collectives/nccl_debug.hpp"
#include "benchmarks/collectives/node_counts.hpp"
#include "benchmarks/collectives/self_launch.hpp"
#include "benchmarks/collectives/transport_config.hpp"
#include "core/errors.hpp"
#include "transports/mpi/launch_env.hpp"
#include "transports/mpi/watchdog.hpp"
#include "transports/nccl/nccl_logic.hpp"
#include "transports/net/net_interfaces.hpp"

using namespace gpubench;
namespace coll = gpubench::benchmarks::collectives;
namespace mpi = gpubench::transports::mpi;
namespace nccl = gpubench::transports::nccl;
namespace net = gpubench::transports::net;

namespace {
mpi::env_lookup env_of(std::map<std::string, std::string> vars) {
  return [vars](const char* name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}
}  // namespace

TEST(CollLaunch, DetectsLaunchers) {
  EXPECT_FALSE(mpi::detect_launch(env_of({})).launched);
  auto o =
      mpi::detect_launch(env_of({{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "4"}}));
  EXPECT_TRUE(o.launched);
  EXPECT_EQ(o.rank, 3);
  EXPECT_EQ(o.size, 4);
  auto p = mpi::detect_launch(env_of({{"PMI_RANK", "1"}, {"PMI_SIZE", "2"}}));
  EXPECT_EQ(p.launcher, "PMI");
  EXPECT_EQ(p.rank, 1);
  auto x = mpi::detect_launch(env_of({{"PMIX_RANK", "0"}}));
  EXPECT_TRUE(x.launched);
  EXPECT_FALSE(
      mpi::detect_launch(env_of({{"OMPI_COMM_WORLD_RANK", "x"}, {"OMPI_COMM_WORLD_SIZE", "4"}}))
          .launched);
}

// srun with Slurm's MpiDefault=none: no PMI variables, several tasks. Each task would be a
// world of one and self-launch mpirun on its node; gpubench stops and says what to do, for
// the MPI library it runs with (srun_hint_test.cpp has the advice itself).
TEST(CollLaunch, SrunWithoutPmiIsRefused) {
  constexpr const char* open_mpi = "Open MPI v4.1.4";
  const auto l = mpi::detect_launch(
      env_of({{"SLURM_PROCID", "2"}, {"SLURM_STEP_NUM_TASKS", "4"}, {"SLURM_NTASKS", "4"}}));
  EXPECT_FALSE(l.launched);
  EXPECT_EQ(l.tasks_without_pmi, 4);
  const auto why = mpi::launch_problem(l, open_mpi);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("srun started 4 tasks without a PMI"), std::string::npos) << *why;
  EXPECT_NE(why->find("use srun --mpi=pmix: Open MPI v4.1.4"), std::string::npos) << *why;
  EXPECT_EQ(why->find("use srun --mpi=pmi2"), std::string::npos)
      << "Open MPI without Slurm's PMI dies in MPI_Init under --mpi=pmi2: " << *why;
  EXPECT_NE(mpi::launch_problem(l, "MPICH Version:\t4.0.2")->find("use srun --mpi=pmi2"),
            std::string::npos);
  // One task (srun -n 1, or a batch script's own step): nothing to refuse.
  EXPECT_FALSE(mpi::launch_problem(
      mpi::detect_launch(env_of({{"SLURM_PROCID", "0"}, {"SLURM_STEP_NUM_TASKS", "1"}})),
      open_mpi));
  EXPECT_FALSE(mpi::launch_problem(
      mpi::detect_launch(env_of({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "8"}})), open_mpi))
      << "a batch script (no SLURM_STEP_NUM_TASKS) is not an srun step";
  // With PMIx, srun is a launcher; its task count is the expected world size.
  const auto x = mpi::detect_launch(
      env_of({{"SLURM_PROCID", "1"}, {"SLURM_STEP_NUM_TASKS", "4"}, {"PMIX_RANK", "1"}}));
  EXPECT_TRUE(x.launched);
  EXPECT_FALSE(mpi::launch_problem(x, open_mpi));
  EXPECT_EQ(x.launcher_tasks, 4);
}

TEST(CollLaunch, LauncherTasksMustEqualWorldSize) {
  constexpr const char* open_mpi = "Open MPI v4.1.4";
  const auto x = mpi::detect_launch(
      env_of({{"SLURM_PROCID", "1"}, {"SLURM_STEP_NUM_TASKS", "4"}, {"PMIX_RANK", "1"}}));
  EXPECT_FALSE(mpi::world_size_mismatch(x, 4, open_mpi));
  const auto why = mpi::world_size_mismatch(x, 1, open_mpi);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("started 4 tasks"), std::string::npos) << *why;
  EXPECT_NE(why->find("--mpi=pmix"), std::string::npos) << *why;
  const auto o =
      mpi::detect_launch(env_of({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "2"}}));
  EXPECT_EQ(o.launcher_tasks, 2);
  EXPECT_TRUE(mpi::world_size_mismatch(o, 3, open_mpi));
  EXPECT_FALSE(mpi::world_size_mismatch(mpi::detect_launch(env_of({})), 1, open_mpi));
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
  // Without pml ob1, Open MPI may choose ucx or cm whatever the btls say: never "tcp".
  EXPECT_EQ(coll::mpi_transport(env_of({}), 4, false).label, "auto");
  EXPECT_EQ(coll::mpi_transport(env_of({}), 4, true).label, "auto");
  EXPECT_EQ(coll::mpi_transport(env_of({{"OMPI_MCA_btl", "self,tcp"}}), 1, true).label, "auto");
  EXPECT_EQ(
      coll::mpi_transport(env_of({{"OMPI_MCA_btl", "self,tcp"}, {"OMPI_MCA_pml", "ob1"}}), 1, true)
          .label,
      "tcp");
  EXPECT_EQ(
      coll::mpi_transport(env_of({{"OMPI_MCA_btl", "self,tcp"}, {"OMPI_MCA_pml", "cm"}}), 4, false)
          .label,
      "auto");
  EXPECT_EQ(coll::mpi_transport(
                env_of({{"OMPI_MCA_btl", "self,vader,tcp"}, {"OMPI_MCA_pml", "ob1"}}), 4, true)
                .label,
            "tcp");
  EXPECT_EQ(coll::mpi_transport(env_of({{"OMPI_MCA_btl", "^openib,uct"}}), 4, true).label, "auto");
  // ob1 with an exclusion list that leaves an RDMA btl (Open MPI 5's ofi): not certainly tcp.
  EXPECT_EQ(coll::mpi_transport(env_of({{"OMPI_MCA_btl", "^openib,uct"}, {"OMPI_MCA_pml", "ob1"}}),
                                4, true)
                .label,
            "auto");
  EXPECT_EQ(
      coll::mpi_transport(
          env_of({{"OMPI_MCA_btl", "^openib,uct,ofi,usnic"}, {"OMPI_MCA_pml", "ob1"}}), 4, true)
          .label,
      "tcp");
  EXPECT_EQ(coll::mpi_transport(
                env_of({{"OMPI_MCA_btl", "self,vader,tcp,ofi"}, {"OMPI_MCA_pml", "ob1"}}), 4, true)
                .label,
            "rdma");
  EXPECT_EQ(coll::mpi_transport(env_of({{"OMPI_MCA_btl", "self,vader,openib"}}), 4, true).label,
            "rdma");
  EXPECT_EQ(
      coll::mpi_transport(env_of({{"OMPI_MCA_pml", "ucx"}, {"UCX_TLS", "rc,sm,self"}}), 4, true)
          .label,
      "rdma");
  EXPECT_EQ(coll::mpi_transport(env_of({{"OMPI_MCA_pml", "ucx"}, {"UCX_TLS", "tcp,self"}}), 4, true)
                .label,
            "tcp");
  // UCX's own transport names, as soft-RoCE and PVRDMA need them (no mlx5 accelerated ones).
  const auto verbs = coll::mpi_transport(
      env_of({{"OMPI_MCA_pml", "ucx"}, {"UCX_TLS", "rc_verbs,ud_verbs,self"}}), 2, true);
  EXPECT_EQ(verbs.label, "rdma");
  EXPECT_EQ(verbs.basis, "OMPI_MCA_pml=ucx, UCX_TLS=rc_verbs,ud_verbs,self");
  // An exclusion list is not "tcp" because it spells tcp.
  const auto but_tcp =
      coll::mpi_transport(env_of({{"OMPI_MCA_pml", "ucx"}, {"UCX_TLS", "^tcp"}}), 2, true);
  EXPECT_EQ(but_tcp.label, "ucx");
  EXPECT_NE(but_tcp.basis.find("chooses among"), std::string::npos) << but_tcp.basis;
  const auto shm_only =
      coll::mpi_transport(env_of({{"OMPI_MCA_pml", "ucx"}, {"UCX_TLS", "posix,self"}}), 2, true);
  EXPECT_EQ(shm_only.label, "ucx");
  EXPECT_EQ(shm_only.basis.find("not set"), std::string::npos) << shm_only.basis;
  const auto c =
      coll::mpi_transport(env_of({{"OMPI_MCA_btl_tcp_if_include", "198.18.0.0/15"}}), 4, false);
  EXPECT_NE(c.basis.find("not ob1"), std::string::npos) << c.basis;
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

TEST(CollLaunch, SysfsSpeedPeakIsTheDriversClaim) {
  net::net_interface vm{"ens192", {"198.18.0.2"}, 10000, true, false, "vmxnet3"};
  const std::string b = net::speed_peak_basis(vm);
  EXPECT_NE(b.find("10000 Mb/s"), std::string::npos) << b;
  EXPECT_NE(b.find("vmxnet3 driver claims"), std::string::npos) << b;
  EXPECT_NE(b.find("whatever the host's uplink"), std::string::npos) << b;
  net::net_interface bare{"eth0", {}, 100000, true, false, "mlx5_core"};
  EXPECT_NE(net::speed_peak_basis(bare).find("claims"), std::string::npos);
  EXPECT_EQ(net::speed_peak_basis(bare).find("vmxnet3"), std::string::npos);
  EXPECT_EQ(net::to_json(vm)["driver"], "vmxnet3");
}

TEST(CollLaunch, InterfaceSelection) {
  std::vector<net::net_interface> all = {{"lo", {"127.0.0.1"}, -1, true, true, ""},
                                         {"eth0", {"10.0.0.5"}, 1000, true, false, ""},
                                         {"eth1", {"198.18.0.2"}, 100000, true, false, ""},
                                         {"docker0", {"172.17.0.1"}, -1, true, false, ""},
                                         {"eth2", {}, -1, false, false, ""}};
  auto names = [](const std::vector<net::net_interface>& v) {
    std::vector<std::string> n;
    for (const auto& i : v)
      n.push_back(i.name);
    return n;
  };
  EXPECT_EQ(names(net::select_interfaces(all, {})),
            (std::vector<std::string>{"eth0", "eth1", "docker0"}));
  EXPECT_EQ(names(net::select_interfaces(all, {"eth"})),
            (std::vector<std::string>{"eth0", "eth1"}));
  EXPECT_EQ(names(net::select_interfaces(all, {"=eth1"})), (std::vector<std::string>{"eth1"}));
  EXPECT_EQ(names(net::select_interfaces(all, {"198.18.0.0/15"})),
            (std::vector<std::string>{"eth1"}));
  EXPECT_EQ(names(net::select_interfaces(all, {"^docker"})),
            (std::vector<std::string>{"eth0", "eth1"}));
  EXPECT_TRUE(net::in_cidr("198.19.255.1", "198.18.0.0/15"));
  EXPECT_FALSE(net::in_cidr("198.20.0.1", "198.18.0.0/15"));
  EXPECT_FALSE(net::in_cidr("198.18.0.1", "198.18.0.0/40"));
}

TEST(CollLaunch, SelfLaunchCommandLine) {
  coll::self_launch_request r;
  r.benchmark = "coll.allreduce";
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
  // The check is the child's default too; only turning it off is passed on.
  EXPECT_FALSE(has("--check"));
  EXPECT_FALSE(has("--no-check"));
  EXPECT_TRUE(has("/tmp/x/result.json"));
  EXPECT_TRUE(has("^coll\\.allreduce$"));
  r.open_mpi = false;
  r.check = false;
  const auto m = coll::launcher_argv(r, "mpiexec", "/r.json");
  EXPECT_EQ(std::find(m.begin(), m.end(), "--oversubscribe"), m.end());
  EXPECT_NE(std::find(m.begin(), m.end(), "--no-check"), m.end());
}

TEST(CollNccl, DeviceForLocalRank) {
  std::string why;
  EXPECT_EQ(nccl::device_for_local_rank(2, 4, why), 2);
  EXPECT_EQ(nccl::device_for_local_rank(3, 1, why), 0) << "per-rank CUDA_VISIBLE_DEVICES";
  // More ranks than GPUs wrap around (duplicate_gpus then names the ranks that share one).
  EXPECT_EQ(nccl::device_for_local_rank(5, 4, why), 1);
  EXPECT_FALSE(nccl::device_for_local_rank(0, 0, why));
  EXPECT_NE(why.find("none visible"), std::string::npos);
}

TEST(CollNccl, DeviceIndexAmongRanksSeeingTheSameGpus) {
  // srun --gpu-bind=closest on a 4-GPU node: ranks 0-1 see the first socket's two GPUs,
  // ranks 2-3 the second's; rank 4 is on another node seeing all four.
  const std::vector<std::pair<int, std::string>> ranks = {{0, "0000:3b,0000:5e"},
                                                          {0, "0000:3b,0000:5e"},
                                                          {0, "0000:af,0000:d8"},
                                                          {0, "0000:af,0000:d8"},
                                                          {1, "0000:3b,0000:5e,0000:af,0000:d8"}};
  EXPECT_EQ(nccl::index_among_same_devices(ranks), (std::vector<int>{0, 1, 0, 1, 0}));
}

TEST(CollNccl, DuplicateGpusAcrossLocalRanks) {
  // Two nodes, two ranks each; distinct GPUs: fine. The same bus id on two nodes is fine too.
  std::vector<nccl::rank_gpu> ok = {{0, 0, "a", "0000:3b:00.0"},
                                    {1, 0, "a", "0000:5e:00.0"},
                                    {2, 1, "b", "0000:3b:00.0"},
                                    {3, 1, "b", "0000:5e:00.0"}};
  EXPECT_FALSE(nccl::duplicate_gpus(ok));
  // Ranks 2 and 3 on node b both on one GPU (CUDA_VISIBLE_DEVICES=0 for every rank).
  auto dup = ok;
  dup[3].bus_id = "0000:3b:00.0";
  const auto why = nccl::duplicate_gpus(dup);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("ranks 2, 3 on b share GPU 0000:3b:00.0"), std::string::npos) << *why;
  EXPECT_NE(why->find("one GPU per rank"), std::string::npos) << *why;
  EXPECT_FALSE(nccl::duplicate_gpus({}));
}

// NCCL's own words (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET) decide what it used.
TEST(CollNccl, TransportFromNcclDebugLines) {
  const std::string ib =
      "h1:1234:1234 [0] NCCL INFO Bootstrap : Using eth0:198.18.0.1<0>\n"
      "h1:1234:1234 [0] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)\n"
      "h1:1234:1234 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB eth0:198.18.0.1<0>\n"
      "h1:1234:1234 [0] NCCL INFO Using network IB\n"
      "h1:1234:1234 [0] NCCL INFO comm 0x55 rank 0 nRanks 2 nNodes 2 localRanks 1\n";
  const auto c = coll::parse_nccl_net(ib);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->network, "IB");
  EXPECT_EQ(c->label, "rdma");
  EXPECT_EQ(c->devices, "[0]mlx5_0:1/RoCE [RO]; OOB eth0:198.18.0.1<0>");
  EXPECT_NE(c->evidence.find("Using network IB"), std::string::npos);
  EXPECT_FALSE(coll::nccl_label_disagreement("rdma", *c));
  EXPECT_FALSE(coll::nccl_label_disagreement("auto", *c));
  const auto differ = coll::nccl_label_disagreement("tcp", *c);
  ASSERT_TRUE(differ.has_value());
  EXPECT_NE(differ->find("says tcp but NCCL chose IB"), std::string::npos) << *differ;

  const std::string sock =
      "h1:9:9 [0] NCCL INFO NET/IB : No device found.\n"
      "h1:9:9 [0] NCCL INFO NET/Socket : Using [0]eth1:198.18.6.1<0>\n"
      "h1:9:9 [0] NCCL INFO Using network Socket\r\n";
  const auto s = coll::parse_nccl_net(sock);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->network, "Socket");
  EXPECT_EQ(s->label, "tcp");
  EXPECT_EQ(s->devices, "[0]eth1:198.18.6.1<0>");
  EXPECT_TRUE(coll::nccl_label_disagreement("rdma", *s));
  EXPECT_FALSE(coll::nccl_label_disagreement("tcp", *s));

  // Without the "Using network" line the NET/<name> : Using line decides.
  const auto old = coll::parse_nccl_net("x NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n");
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->label, "tcp");
  // A plugin (AWS OFI, ...): recorded, never a disagreement claim.
  const auto plugin = coll::parse_nccl_net("x NCCL INFO Using network AWS Libfabric\n");
  ASSERT_TRUE(plugin.has_value());
  EXPECT_EQ(plugin->network, "AWS Libfabric");
  EXPECT_EQ(plugin->label, "auto");
  EXPECT_TRUE(coll::nccl_label_disagreement("tcp", *plugin));
  EXPECT_FALSE(coll::parse_nccl_net("x NCCL INFO comm 0x1 rank 0 nRanks 1\n"));
  EXPECT_FALSE(coll::parse_nccl_net(""));
}

TEST(CollNccl, AFailureSaysWhatNcclSaid) {
  const std::string log =
      "h1:77:77 [0] NCCL INFO Bootstrap : Using eth0:198.18.0.1<0>\n"
      "h1:77:80 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
      "198.18.0.2<41137> failed : Connection refused\n"
      "h1:77:80 [0] NCCL INFO misc/socket.cc:565 -> 2\n"
      "h1:77:77 [0] bootstrap.cc:100 NCCL WARN Bootstrap : no socket interface found\r\n";
  EXPECT_EQ(coll::nccl_warnings(log),
            (std::vector<std::string>{"socketStartConnect: Connect to 198.18.0.2<41137> failed : "
                                      "Connection refused",
                                      "Bootstrap : no socket interface found"}));
  EXPECT_EQ(coll::nccl_warnings(log, 1),
            (std::vector<std::string>{"Bootstrap : no socket interface found"}));
  EXPECT_EQ(coll::explain_nccl_failure("ncclCommInitRank: unhandled system error", log,
                                       "/tmp/gpubench-nccl-77.log"),
            "ncclCommInitRank: unhandled system error; NCCL said: socketStartConnect: Connect to "
            "198.18.0.2<41137> failed : Connection refused | Bootstrap : no socket interface "
            "found; NCCL's debug log (INIT, NET and WARN lines) is kept in "
            "/tmp/gpubench-nccl-77.log");
  // Not captured (the user set NCCL_DEBUG): nothing invented, and where to look.
  EXPECT_EQ(coll::explain_nccl_failure("ncclAllReduce: internal error", "", ""),
            "ncclAllReduce: internal error; NCCL's own messages went where "
            "NCCL_DEBUG/NCCL_DEBUG_FILE send them");
}

TEST(CollNccl, LibraryCandidatesAndVersion) {
  EXPECT_EQ(nccl::nccl_library_candidates(std::nullopt).front(), "libnccl.so.2");
  EXPECT_EQ(nccl::nccl_library_candidates(std::string("/opt/nccl/lib/libnccl.so.2")),
            (std::vector<std::string>{"/opt/nccl/lib/libnccl.so.2"}));
  EXPECT_EQ(nccl::nccl_version_text(22809), "2.28.9");
  EXPECT_EQ(nccl::nccl_version_text(2804), "2.8.4");
}

TEST(CollLaunch, WatchdogFiresOnlyWithoutProgress) {
  std::atomic<int> fired{0};
  {
    mpi::watchdog dog(std::chrono::milliseconds(300), [&](const std::string&) { ++fired; });
    for (int i = 0; i < 6; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      dog.beat("working");
    }
  }
  EXPECT_EQ(fired.load(), 0);
  std::string message;
  {
    mpi::watchdog dog(std::chrono::milliseconds(50), [&](const std::string& m) {
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
