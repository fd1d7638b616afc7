// What a case measures, declared by its benchmark and written into every case of a result
// file: reports, findings and the diagram select cases by it, never by benchmark id.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpubench::core {

// The paths and operations gpubench knows. A file may carry others (a newer writer): they are
// kept as read and simply match none of these.
namespace paths {
inline constexpr std::string_view host_memory = "host_memory";  // host memory to host memory
inline constexpr std::string_view host_gpu = "host_gpu";        // host memory and one GPU
inline constexpr std::string_view gpu_gpu = "gpu_gpu";          // one GPU and another
inline constexpr std::string_view network = "network";          // two hosts, point to point
inline constexpr std::string_view collective = "collective";    // a group of ranks
}  // namespace paths

// The direction of a host-GPU copy.
namespace directions {
inline constexpr std::string_view to_gpu = "to_gpu";
inline constexpr std::string_view to_host = "to_host";
inline constexpr std::string_view both = "both";
}  // namespace directions

struct measure_kind {
  std::string path;       // one of paths::*; empty: not declared
  std::string direction;  // host_gpu copies: one of directions::*
  std::string transport;  // network: "tcp", "rdma", ...
  std::string operation;  // collective: "allreduce", "allgather", ...
  // The parameters that name the endpoints ({"gpu", "numa"}, {"src", "dst"}, {"peer"}).
  std::vector<std::string> endpoints;

  bool empty() const { return path.empty(); }
  bool is(std::string_view p) const { return path == p; }
  friend bool operator==(const measure_kind&, const measure_kind&) = default;
};

// Which cases a reader takes: a path, and where set, a qualifier and the metric ("bandwidth",
// "latency"); an empty field matches anything. {.path = paths::network, .transport = "tcp"}.
struct kind_query {
  std::string_view path;
  std::string_view direction = {};
  std::string_view transport = {};
  std::string_view operation = {};
  std::string_view metric = {};

  bool matches(const measure_kind& k, std::string_view case_metric) const {
    const auto same = [](std::string_view want, std::string_view have) {
      return want.empty() || want == have;
    };
    return k.path == path && same(direction, k.direction) && same(transport, k.transport) &&
           same(operation, k.operation) && same(metric, case_metric);
  }
};

// What each family's benchmarks declare.
measure_kind host_memory_kind(std::vector<std::string> endpoints);
measure_kind host_gpu_kind(std::string_view direction, std::vector<std::string> endpoints);
measure_kind gpu_gpu_kind(std::vector<std::string> endpoints);
measure_kind network_kind(std::string_view transport, std::vector<std::string> endpoints);
measure_kind collective_kind(std::string_view operation, std::vector<std::string> endpoints);

// The JSON form: {"path": ..., "direction"/"transport"/"operation" where set, "endpoints": [...]}.
nlohmann::json to_json(const measure_kind& k);
// Reads the JSON form; unknown fields are ignored. Throws std::invalid_argument on a field of
// the wrong type.
measure_kind kind_from_json(const nlohmann::json& j);

// The kind of each benchmark id that format 1.0 knew, whose files carry no kind; empty for any
// other id.
measure_kind kind_of_format_1_0(std::string_view benchmark);

}  // namespace gpubench::core
