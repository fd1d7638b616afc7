// A cluster run's pair figures as directed edges (sender, receiver, figure, round), grouped by
// what was measured: a bandwidth case measured both ways (params "direction" to_peer and
// from_peer) is one group whose figures each have a sender and a receiver, so a node is judged
// per way (slow to send, slow to receive); latency, or bandwidth without a way, is one group
// whose figures belong to both ends. Works on every pair or a sparse sweep's list (core slots).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/suspects.hpp"
#include "core/result.hpp"

namespace gpubench::cluster {

// Which of a node's figures a verdict is drawn from: those where it sends, where it receives,
// or (a measurement with no way: latency, a bidirectional sum) every figure it is an end of.
enum class role { both, send, receive };

// "", "send", "receive" (suspect::direction's words).
std::string direction_word(role r);
// "slow to send: ", "slow to receive: " or "".
std::string role_prefix(role r);

// The way a pair measurement ran, from its params: b -> a ("to_peer"), a -> b ("from_peer"),
// or neither (latency, "bidir", no direction).
enum class way { both, to_peer, from_peer };
way way_of(const nlohmann::json& params);
// The params without a one-way "direction" (the group's params); others as they are.
nlohmann::json without_way(const nlohmann::json& params);

struct edge {
  std::uint32_t from = 0;  // the sender (for a measurement with no way: the pair's first end)
  std::uint32_t to = 0;    // the receiver (its second end)
  double value = 0;
  std::uint32_t round = 0;        // the (sub-)round the pair was measured in
  std::uint32_t measurement = 0;  // index into pair_group::measurements
};

// Whether node `n` is in `e` in role `r`.
inline bool in_role(const edge& e, role r, std::size_t n) {
  return r == role::send ? e.from == n : r == role::receive ? e.to == n : e.from == n || e.to == n;
}

// One measured quantity: a case at one size, every way it was measured.
struct pair_group {
  std::string benchmark;
  nlohmann::json params = nlohmann::json::object();  // without the way
  std::uint64_t bytes = 0;
  std::string unit;
  bool higher_is_better = true;
  bool directed = false;  // measured one way at a time: figures have a sender and a receiver
  std::string label;      // "net.tcp.bandwidth 1M (streams=1)"
  std::vector<const core::pair_measurement*> measurements;
  std::vector<edge> edges;  // between answering nodes

  std::vector<role> roles() const {
    return directed ? std::vector<role>{role::send, role::receive} : std::vector<role>{role::both};
  }
};

// Every pair measurement of `c` in groups; a measurement too unsteady to judge (the stable-point
// rule for pairs) is left out and its words added to `unsteady`.
std::vector<pair_group> pair_groups(const core::cluster_section& c, const suspect_options& options,
                                    std::vector<std::string>& unsteady);

// The sender and the receiver of the pair a < b measured the way `w` (a and b for no way).
std::pair<std::size_t, std::size_t> ends_of(std::size_t a, std::size_t b, way w);

}  // namespace gpubench::cluster
