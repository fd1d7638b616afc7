#include "reports/page_one/findings/rule_helpers.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "reports/model/series.hpp"
#include "reports/model/text_format.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

std::optional<long long> int_param(const core::case_result& c, const std::string& key) {
  if (!c.params.is_object()) return std::nullopt;
  const auto it = c.params.find(key);
  if (it == c.params.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<long long>();
}

std::string text_param(const core::case_result& c, const std::string& key,
                       const std::string& fallback) {
  if (!c.params.is_object()) return fallback;
  const auto it = c.params.find(key);
  return it != c.params.end() && it->is_string() ? it->get<std::string>() : fallback;
}

std::string collective_path_check(const core::case_result& c) {
  if (text_param(c, "backend") == "mpi")
    return "the path Open MPI takes (--mca pml_base_verbose 10 --mca btl_base_verbose 10 name "
           "it: shared memory (vader) within a node, tcp or ucx across nodes)";
  return "the path NCCL takes (NCCL_DEBUG=INFO: P2P/IPC or NVLink, SHM, or NET, and the "
         "algorithm)";
}

std::optional<double> largest_median(const core::case_result& c) {
  if (c.status != core::case_status::ok) return std::nullopt;
  const auto* p = largest_point(c);
  if (!p || !std::isfinite(p->stats.median)) return std::nullopt;
  return p->stats.median;
}

std::uint64_t largest_bytes(const core::case_result& c) {
  const auto* p = largest_point(c);
  return p ? p->bytes : 0;
}

std::vector<const core::case_result*> measured_cases(const core::result_file& f,
                                                     const core::kind_query& kind) {
  std::vector<const core::case_result*> out;
  for (const auto& c : f.results)
    if (kind.matches(c.kind, c.metric) && c.status == core::case_status::ok && !c.points.empty())
      out.push_back(&c);
  return out;
}

std::string direction_text(std::string_view direction) {
  return direction == core::directions::to_gpu    ? "host->GPU"
         : direction == core::directions::to_host ? "GPU->host"
                                                  : "both ways";
}

core::kind_query host_copies(std::string_view direction) {
  return {.path = core::paths::host_gpu, .direction = direction, .metric = "bandwidth"};
}

const nlohmann::json* gpu_entry(const core::result_file& f, long long index) {
  if (!f.system.is_object()) return nullptr;
  const auto it = f.system.find("gpus");
  if (it == f.system.end() || !it->is_array()) return nullptr;
  for (const auto& g : *it)
    if (g.is_object() && g.contains("index") && g.at("index").is_number_integer() &&
        g.at("index").get<long long>() == index)
      return &g;
  return nullptr;
}

std::optional<long long> gpu_numa_node(const core::result_file& f, long long index) {
  if (const auto* g = gpu_entry(f, index))
    if (g->contains("numa_node") && g->at("numa_node").is_number_integer())
      return g->at("numa_node").get<long long>();
  // Older files: a host copy case of this GPU alone says it in context.gpus.
  for (const auto& c : f.results) {
    if (int_param(c, "gpu") != index || !c.context.is_object()) continue;
    const auto gpus = c.context.find("gpus");
    if (gpus == c.context.end() || !gpus->is_array() || gpus->size() != 1) continue;
    const auto& g = gpus->front();
    if (g.contains("numa_node") && g.at("numa_node").is_number_integer())
      return g.at("numa_node").get<long long>();
  }
  return std::nullopt;
}

pcie_link pcie_link_of(const nlohmann::json& j) {
  pcie_link l;
  if (j.is_object()) {
    if (j.contains("generation") && j.at("generation").is_number_integer())
      l.generation = j.at("generation").get<int>();
    if (j.contains("width") && j.at("width").is_number_integer())
      l.width = j.at("width").get<int>();
  } else if (j.is_string()) {
    std::string s = j.get<std::string>();
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    int gen = 0, width = 0;
    if (std::sscanf(s.c_str(), "gen%d x%d", &gen, &width) == 2 && gen > 0 && width > 0) {
      l.generation = gen;
      l.width = width;
    }
  }
  return l;
}

std::string pcie_text(const pcie_link& l) {
  const std::string gen = l.generation ? fmt::format("{}.0", *l.generation) : "?";
  const std::string width = l.width ? std::to_string(*l.width) : "?";
  return fmt::format("PCIe {} x{}", gen, width);
}

double median_of(std::vector<double> values) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string figure(double value, const std::string& unit) {
  return format_value(value) + " " + unit;
}

std::string at_size(std::uint64_t bytes) {
  return bytes ? " at " + format_size(bytes) : std::string();
}

std::string percent(double fraction) {
  return fmt::format("{:.0f} %", fraction * 100);
}

}  // namespace gpubench::reports::page_one::findings
