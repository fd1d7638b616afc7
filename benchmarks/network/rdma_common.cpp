#include "benchmarks/network/rdma_common.hpp"

#include <algorithm>

#include "benchmarks/network/p2p_driver.hpp"
#include "core/errors.hpp"
#include "transports/control/client.hpp"
#include "transports/net/socket.hpp"
#include "transports/rdma/buffer_plan.hpp"
#include "transports/rdma/device_choice.hpp"
#include "transports/rdma/device_info.hpp"
#include "transports/rdma/params.hpp"
#include "transports/rdma/rdma_settings.hpp"
#include "transports/rdma/rdma_transport.hpp"

namespace gpubench::benchmarks::network {

namespace rdma = transports::rdma;

namespace {

rdma::rdma_settings settings_for(const core::case_state& state, rdma::test_kind test) {
  const auto& ctx = state.context();
  const auto o = rdma::parse_rdma_options(ctx);
  rdma::rdma_settings s;
  s.test = test;
  s.op = rdma::parse_ops(state.params().at("op").get<std::string>()).front();
  s.memory = rdma::parse_memory(state.params().at("memory").get<std::string>());
  const auto sizes = state.sizes();
  s.max_bytes = *std::max_element(sizes.begin(), sizes.end());
  if (s.max_bytes > rdma::max_transfer_bytes)
    throw core::usage_error("--sizes: RDMA messages are at most 1 GiB");
  s.tx_depth = o.tx_depth;
  s.cq_mod = o.cq_mod;
  s.inline_size = o.inline_size;
  s.rdma_cm = o.rdma_cm;
  s.completion = o.completion;
  s.tclass = o.tclass;
  s.sl = o.sl;
  s.relaxed_ordering = o.relaxed_ordering;
  s.client = {o.device, o.port, o.gid_index, o.gpu, o.pkey_index};
  // In loopback both sides use the same device, port, GID, GPU and P_Key index.
  s.server = ctx.peer ? rdma::side_settings{o.peer_device, o.peer_port, o.peer_gid_index,
                                            o.peer_gpu, o.peer_pkey_index}
                      : s.client;
  return s;
}

// The case's sizes that both sides' buffers hold (a device may register less than the case's
// largest size: PVRDMA 1 GiB per region). The others are left out, named in the context with
// the reason; the case is skipped when none is left.
std::vector<std::uint64_t> sizes_that_fit(core::case_state& state, network::p2p_link& link) {
  auto sizes = state.sizes();
  const auto limit = link.session().endpoint().message_limit();
  if (!limit) return sizes;
  std::vector<std::uint64_t> fit, left_out;
  for (const auto size : sizes)
    (size <= limit->largest ? fit : left_out).push_back(size);
  const std::string why = "above " + rdma::size_text(limit->largest) + ", the largest message " +
                          "the buffers hold: " + limit->why;
  if (fit.empty()) throw core::skip_case("no size of the case fits: every one is " + why);
  if (!left_out.empty())
    state.context_info()["sizes_left_out"] = {{"sizes", left_out}, {"reason", why}};
  return fit;
}

}  // namespace

std::string rdma_peer_param(const core::run_context& ctx) {
  return ctx.peer ? network::peer_param(ctx) : std::string(rdma_loopback_label);
}

void add_rdma_options(core::registry& r) {
  network::add_p2p_options(r);  // --token-file, --io-timeout, --on-error of the shared driver
  // Some values are wrong only together (--rdma-cm on with --rdma-sl): each option is checked
  // by parsing them all.
  const auto add = [&r](core::option_spec spec) {
    spec.check = [](const core::run_context& ctx) { rdma::parse_rdma_options(ctx); };
    r.add_option(std::move(spec));
  };
  add({"rdma-op", "RDMA operations: send, write, read (comma-separated) or all", "all"});
  add({"rdma-memory", "RDMA buffers: host, or cuda (GPUDirect RDMA)", "host"});
  add({"rdma-device",
       "RDMA device (default: the one on the path to the peer, or the only active one)", ""});
  add({"rdma-port", "RDMA port number", "1"});
  add({"gid-index", "RoCE GID index (default: chosen, IPv4 RoCE v2 first)", ""});
  add({"peer-rdma-device",
       "RDMA device the --peer server uses (default: the one on its path to this host)", ""});
  add({"peer-rdma-port", "RDMA port the --peer server uses", "1"});
  add({"peer-gid-index", "RoCE GID index the --peer server uses", ""});
  add({"pkey-index", "RDMA: P_Key index of the queue pair (partitioned InfiniBand fabrics)", "0"});
  add({"peer-pkey-index", "RDMA: P_Key index the --peer server's queue pair uses", "0"});
  add({"tx-depth", "RDMA bandwidth: outstanding work requests", "128"});
  add({"cq-mod", "RDMA bandwidth: one signalled completion every N work requests", "100"});
  add({"rdma-inline",
       "RDMA inline size in bytes (default: latency per provider, e.g. 220 write and 236 send "
       "on ConnectX, 96 bnxt_re, 32 efa, 0 unknown; 0 bandwidth)",
       ""});
  add({"rdma-iters",
       "RDMA bandwidth: work requests per sample at least, as far as 100 ms of the "
       "calibrated rate allows (samples last about 50 ms)",
       "5000"});
  add({"rdma-direction",
       "RDMA bandwidth: uni (the operation's direction), bidir (both at once) or both", "both"});
  add({"rdma-gpu", "CUDA device whose memory --rdma-memory cuda registers", "0"});
  add({"peer-rdma-gpu", "CUDA device the --peer server registers", "0"});
  add({"rdma-cm", "RDMA: connect queue pairs through rdma_cm (on|off)", "off"});
  add({"rdma-completion",
       "RDMA: wait for completions by busy-polling the CQ (poll) or sleeping on a "
       "completion channel (event, perftest -e)",
       "poll"});
  add({"rdma-tclass",
       "RDMA: GRH traffic class of the address handle (perftest -T); with --rdma-cm on, the "
       "type of service of the rdma_cm id (0: rdma_cm's default)",
       "0"});
  add({"rdma-sl", "RDMA: service level of the address handle (perftest -S)", "0"});
  add({"rdma-relaxed-ordering",
       "RDMA: register memory with PCIe relaxed ordering where the provider allows it (on|off; "
       "perftest's default is on)",
       "on"});
}

core::requirement_status rdma_requirement(const core::run_context& ctx) {
  // Bad options are usage errors (exit 2) even on a host where the cases would be skipped.
  rdma::parse_rdma_options(ctx);
  if (auto why = rdma::rdma_unavailable_reason()) return core::requirement_status::missing(*why);
  return core::requirement_status::ok();
}

std::vector<nlohmann::json> rdma_cases(const core::run_context& ctx, rdma::test_kind test) {
  network::check_p2p_options(ctx);  // a bad value stops the run before anything is measured
  const auto o = rdma::parse_rdma_options(ctx);
  const auto devices = rdma::describe_devices();
  std::string device;
  if (o.device) {
    device = *o.device;
  } else if (!o.rdma_cm) {
    // The device the endpoint will choose (device_choice.hpp) from the address the control
    // connection will leave from: the route towards --peer, 127.0.0.1 in loopback. On a host
    // with several active devices and none on that path, every case is skipped naming them.
    std::string local = "127.0.0.1";
    if (ctx.peer)
      if (auto a = transports::net::local_address_towards(
              transports::net::parse_endpoint(*ctx.peer, transports::control::default_port)))
        local = *a;
    const auto choice = rdma::choose_device(devices, o.port, rdma::control_path_for(local));
    if (choice.refused) throw core::skip_case(choice.why);
    device = choice.device.empty() && !devices.empty() ? devices.front().name : choice.device;
  }
  // iWARP connects only through rdma_cm, and a device without RC (EFA) cannot run a case at
  // all: say so once rather than per case.
  for (const auto& d : devices) {
    if (d.name != device) continue;
    if (!rdma::has_rc(d.provider, d.node_type))
      throw core::skip_case(rdma::no_rc_refusal(device, d.provider));
    if (!o.rdma_cm && rdma::is_iwarp(d.provider, d.node_type))
      throw core::skip_case(rdma::iwarp_manual_refusal(device));
  }
  std::vector<nlohmann::json> cases;
  for (const auto op : o.ops) {
    // Bandwidth cases name the way data moves, as TCP's do; a read pulls from the peer.
    std::vector<std::string> directions{""};
    if (test == rdma::test_kind::bandwidth)
      directions = rdma::bandwidth_directions(op, o.directions);
    for (const auto& direction : directions) {
      nlohmann::json c{{"device", device},
                       {"op", rdma::to_string(op)},
                       {"memory", rdma::to_string(o.memory)},
                       {"peer", rdma_peer_param(ctx)}};
      if (!direction.empty()) c["direction"] = direction;
      // Default values stay out of the params, so cases keep their identity across versions.
      if (o.completion == rdma::completion_mode::event) c["completion"] = "event";
      if (o.tclass != 0) c["tclass"] = o.tclass;
      if (o.sl != 0) c["sl"] = o.sl;
      if (o.pkey_index != 0) c["pkey_index"] = o.pkey_index;
      if (!o.relaxed_ordering) c["relaxed_ordering"] = "off";
      cases.push_back(std::move(c));
    }
  }
  if (o.rdma_cm)
    for (auto& c : cases) {
      c["connection"] = "rdma_cm";
      // The peer's address decides the device: a guessed name here would be read back as an
      // explicit --rdma-device (the result's context names the device rdma_cm used).
      if (!o.device) c.erase("device");
    }
  return cases;
}

void run_rdma_points(core::case_state& state, rdma::test_kind test) {
  const std::string peer = state.params().at("peer").get<std::string>();
  network::run_guarded(state, peer, [&] {
    transports::transport_table table;
    table.add(rdma::rdma_transport());
    nlohmann::json params = state.params();
    params.update(rdma::to_params(settings_for(state, test)));
    network::p2p_link link(state, table, "rdma", params);
    // The driver's loopback label says no NIC was crossed; RDMA loopback goes through the HCA.
    if (!state.context().peer) state.context_info()["peer"] = rdma_peer_param(state.context());
    const auto sizes = sizes_that_fit(state, link);
    if (test == rdma::test_kind::latency) {
      network::run_latency_points(state, link, sizes);
      return;
    }
    // One queue pair. Samples are sized from the calibrated rate (about 50 ms each); perftest's
    // iteration count, or the send window if larger, is their floor as far as 100 ms allows, so
    // a fast link gets at least perftest's sample and a slow device (soft-RoCE) still gives
    // its samples within the point's timeout.
    const auto o = rdma::parse_rdma_options(state.context());
    network::sample_target target;
    target.floor_messages = std::max<std::uint64_t>(o.iterations, o.tx_depth);
    network::run_bandwidth_points(
        state, link, transports::parse_direction(state.params().at("direction").get<std::string>()),
        1, target, sizes);
  });
}

}  // namespace gpubench::benchmarks::network
