// JSON form of a result file's "cluster" section (core/cluster.hpp). Per-pair summaries are
// arrays in slot order (pair_index(), or the section's pair_list), so a 1,000-node matrix stays
// a few MB per measurement and a sparse sweep of 4,096 nodes a few hundred KB.
#include <algorithm>
#include <cmath>

#include "core/cluster.hpp"
#include "core/errors.hpp"
#include "core/result_json.hpp"

namespace gpubench::core {

using nlohmann::json;

std::string to_string(node_status s) {
  switch (s) {
    case node_status::ok:
      return "ok";
    case node_status::stalled:
      return "stalled";
    case node_status::failed:
      return "failed";
  }
  return "failed";
}

std::size_t pair_count(std::size_t n) {
  return n < 2 ? 0 : n * (n - 1) / 2;
}

std::size_t pair_index(std::size_t a, std::size_t b, std::size_t n) {
  if (a > b) std::swap(a, b);
  if (a == b || b >= n)
    throw std::out_of_range("pair_index: no pair {" + std::to_string(a) + ", " + std::to_string(b) +
                            "} of " + std::to_string(n) + " nodes");
  // Pairs before row a: (n-1) + (n-2) + ... + (n-a) = a(2n-a-1)/2.
  return a * (2 * n - a - 1) / 2 + (b - a - 1);
}

std::size_t slot_count(const cluster_section& c) {
  return c.pair_list.empty() ? pair_count(c.nodes.size()) : c.pair_list.size();
}

planned_pair slot_pair(const cluster_section& c, std::size_t slot) {
  if (!c.pair_list.empty()) return c.pair_list.at(slot);
  const std::size_t n = c.nodes.size();
  if (slot >= pair_count(n))
    throw std::out_of_range("slot_pair: no slot " + std::to_string(slot) + " among " +
                            std::to_string(pair_count(n)) + " pairs");
  // Row a starts at a(2n-a-1)/2: estimate a from the quadratic, then step to the exact row.
  const double nd = static_cast<double>(n);
  auto a = static_cast<std::size_t>(std::max(
      0.0, std::floor((2 * nd - 1 -
                       std::sqrt((2 * nd - 1) * (2 * nd - 1) - 8.0 * static_cast<double>(slot))) /
                      2)));
  const auto row = [n](std::size_t r) { return r * (2 * n - r - 1) / 2; };
  while (a > 0 && row(a) > slot)
    --a;
  while (a + 1 < n && row(a + 1) <= slot)
    ++a;
  return {a, a + 1 + (slot - row(a)), 0};
}

slot_lookup::slot_lookup(const cluster_section& c)
    : m_nodes(c.nodes.size()), m_dense(c.pair_list.empty()) {
  for (std::size_t i = 0; i < c.pair_list.size(); ++i) {
    auto [a, b, round] = c.pair_list[i];
    if (a > b) std::swap(a, b);
    m_slots.emplace((static_cast<std::uint64_t>(a) << 32) | b, i);
  }
}

std::optional<std::size_t> slot_lookup::find(std::size_t a, std::size_t b) const {
  if (a > b) std::swap(a, b);
  if (a == b || b >= m_nodes) return std::nullopt;
  if (m_dense) return pair_index(a, b, m_nodes);
  const auto it = m_slots.find((static_cast<std::uint64_t>(a) << 32) | b);
  if (it == m_slots.end()) return std::nullopt;
  return it->second;
}

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw input_error(path + ": " + what);
}

const json& field(const json& j, const std::string& path, const std::string& key) {
  if (!j.is_object()) fail(path, "expected an object");
  const auto it = j.find(key);
  if (it == j.end()) fail(path + "." + key, "missing");
  return *it;
}

std::string text(const json& j, const std::string& path) {
  if (!j.is_string()) fail(path, "expected a string");
  return j.get<std::string>();
}

std::uint64_t whole(const json& j, const std::string& path) {
  if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<std::int64_t>() >= 0))
    fail(path, "expected a non-negative integer");
  return j.get<std::uint64_t>();
}

const json& array(const json& j, const std::string& path) {
  if (!j.is_array()) fail(path, "expected an array");
  return j;
}

// A summary array: numbers, or null for a pair not measured.
std::vector<std::optional<double>> optional_numbers(const json& j, const std::string& path,
                                                    std::size_t expected) {
  array(j, path);
  if (j.size() != expected)
    fail(path, "has " + std::to_string(j.size()) + " entries, expected one per pair (" +
                   std::to_string(expected) + ")");
  std::vector<std::optional<double>> out;
  out.reserve(expected);
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (j[i].is_null()) {
      out.emplace_back();
      continue;
    }
    if (!j[i].is_number()) fail(path + "[" + std::to_string(i) + "]", "expected a number or null");
    const double v = j[i].get<double>();
    if (!std::isfinite(v) || v < 0)
      fail(path + "[" + std::to_string(i) + "]", "expected a finite non-negative number");
    out.push_back(v);
  }
  return out;
}

json optional_numbers_json(const std::vector<std::optional<double>>& values) {
  json out = json::array();
  for (const auto& v : values)
    out.push_back(v && std::isfinite(*v) ? json(*v) : json(nullptr));
  return out;
}

cluster_node read_node(const json& j, const std::string& path) {
  cluster_node n;
  n.name = text(field(j, path, "name"), path + ".name");
  if (n.name.empty()) fail(path + ".name", "empty");
  const json& ranks = array(field(j, path, "ranks"), path + ".ranks");
  for (std::size_t i = 0; i < ranks.size(); ++i)
    n.ranks.push_back(
        static_cast<int>(whole(ranks[i], path + ".ranks[" + std::to_string(i) + "]")));
  const std::string status = text(field(j, path, "status"), path + ".status");
  if (status == "ok")
    n.status = node_status::ok;
  else if (status == "stalled")
    n.status = node_status::stalled;
  else if (status == "failed")
    n.status = node_status::failed;
  else
    fail(path + ".status", "unexpected value '" + status + "'");
  if (j.contains("reason")) n.reason = text(j["reason"], path + ".reason");
  const json& system = field(j, path, "system");
  if (!system.is_object()) fail(path + ".system", "expected an object");
  n.system = system;
  const json& results = array(field(j, path, "results"), path + ".results");
  for (std::size_t i = 0; i < results.size(); ++i)
    n.results.push_back(case_from_json(results[i], path + ".results[" + std::to_string(i) + "]"));
  return n;
}

pair_measurement read_pairs(const json& j, const std::string& path, std::size_t pairs) {
  pair_measurement m;
  m.benchmark = text(field(j, path, "benchmark"), path + ".benchmark");
  m.params = field(j, path, "params");
  if (!m.params.is_object()) fail(path + ".params", "expected an object");
  m.bytes = whole(field(j, path, "bytes"), path + ".bytes");
  m.metric = text(field(j, path, "metric"), path + ".metric");
  m.unit = text(field(j, path, "unit"), path + ".unit");
  m.better = text(field(j, path, "better"), path + ".better");
  if (m.better != "higher" && m.better != "lower")
    fail(path + ".better", "unexpected value '" + m.better + "'");
  m.median = optional_numbers(field(j, path, "median"), path + ".median", pairs);
  m.p99 = optional_numbers(field(j, path, "p99"), path + ".p99", pairs);
  const json& count = array(field(j, path, "count"), path + ".count");
  if (count.size() != pairs) fail(path + ".count", "expected one entry per pair");
  for (std::size_t i = 0; i < count.size(); ++i)
    m.count.push_back(
        static_cast<std::uint32_t>(whole(count[i], path + ".count[" + std::to_string(i) + "]")));
  if (j.contains("samples")) {
    const json& samples = array(j["samples"], path + ".samples");
    if (samples.size() != pairs) fail(path + ".samples", "expected one array per pair");
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const std::string p = path + ".samples[" + std::to_string(i) + "]";
      std::vector<double> values;
      for (const auto& v : array(samples[i], p)) {
        if (!v.is_number()) fail(p, "expected numbers");
        values.push_back(v.get<double>());
      }
      m.samples.push_back(std::move(values));
    }
  }
  return m;
}

pair_failure read_failure(const json& j, const std::string& p, std::size_t n) {
  pair_failure f;
  f.a = whole(field(j, p, "a"), p + ".a");
  f.b = whole(field(j, p, "b"), p + ".b");
  if (f.a >= n || f.b >= n || f.a == f.b) fail(p, "not a pair of the listed nodes");
  f.benchmark = text(field(j, p, "benchmark"), p + ".benchmark");
  f.reason = text(field(j, p, "reason"), p + ".reason");
  return f;
}

// The second look (format 1.2).
std::size_t node_index(const json& j, const std::string& path, std::size_t nodes) {
  const auto i = whole(j, path);
  if (i >= nodes) fail(path, "no node " + std::to_string(i) + " among " + std::to_string(nodes));
  return i;
}

double figure_number(const json& j, const std::string& path) {
  if (!j.is_number()) fail(path, "expected a number");
  const double v = j.get<double>();
  if (!std::isfinite(v) || v < 0) fail(path, "expected a finite non-negative number");
  return v;
}

json confirmation_to_json(const cluster_confirmation& c) {
  json candidates = json::array();
  for (const auto& x : c.candidates)
    candidates.push_back(x.b ? json{{"kind", "link"}, {"a", x.a}, {"b", *x.b}}
                             : json{{"kind", "node"}, {"a", x.a}});
  json pairs = json::array();
  for (const auto& p : c.pairs) {
    json figures = json::array();
    for (const auto& f : p.figures)
      figures.push_back({{"benchmark", f.benchmark},
                         {"params", f.params},
                         {"bytes", f.bytes},
                         {"median", f.median},
                         {"p99", f.p99},
                         {"count", f.count}});
    json jp = {{"a", p.a}, {"b", p.b}, {"for", p.for_node ? "node" : "link"}, {"figures", figures}};
    if (p.for_node) jp["node"] = *p.for_node;
    pairs.push_back(std::move(jp));
  }
  json nodes = json::array();
  for (const auto& n : c.nodes) {
    json results = json::array();
    for (const auto& r : n.results)
      results.push_back(case_to_json(r));
    nodes.push_back({{"node", n.node}, {"results", std::move(results)}});
  }
  json failures = json::array();
  for (const auto& f : c.failures)
    failures.push_back({{"a", f.a}, {"b", f.b}, {"benchmark", f.benchmark}, {"reason", f.reason}});
  json out = {{"complete", c.complete},
              {"candidates", std::move(candidates)},
              {"pairs", std::move(pairs)},
              {"nodes", std::move(nodes)},
              {"failures", std::move(failures)}};
  return out;
}

pair_figure read_figure(const json& j, const std::string& path) {
  pair_figure f;
  f.benchmark = text(field(j, path, "benchmark"), path + ".benchmark");
  f.params = field(j, path, "params");
  if (!f.params.is_object()) fail(path + ".params", "expected an object");
  f.bytes = whole(field(j, path, "bytes"), path + ".bytes");
  f.median = figure_number(field(j, path, "median"), path + ".median");
  f.p99 = figure_number(field(j, path, "p99"), path + ".p99");
  f.count = static_cast<std::uint32_t>(whole(field(j, path, "count"), path + ".count"));
  return f;
}

candidate_ref read_candidate(const json& j, const std::string& path, std::size_t n) {
  candidate_ref c;
  const std::string kind = text(field(j, path, "kind"), path + ".kind");
  c.a = node_index(field(j, path, "a"), path + ".a", n);
  if (kind == "link") {
    c.b = node_index(field(j, path, "b"), path + ".b", n);
    if (*c.b <= c.a) fail(path, "a link's ends are two nodes, a < b");
  } else if (kind != "node") {
    fail(path + ".kind", "unexpected value '" + kind + "'");
  }
  return c;
}

confirm_pair read_confirm_pair(const json& j, const std::string& path, std::size_t n) {
  confirm_pair p;
  p.a = node_index(field(j, path, "a"), path + ".a", n);
  p.b = node_index(field(j, path, "b"), path + ".b", n);
  if (p.b <= p.a) fail(path, "a pair of two nodes, a < b");
  const std::string purpose = text(field(j, path, "for"), path + ".for");
  if (purpose == "node") {
    p.for_node = node_index(field(j, path, "node"), path + ".node", n);
    if (*p.for_node != p.a && *p.for_node != p.b) fail(path + ".node", "not an end of the pair");
  } else if (purpose != "link") {
    fail(path + ".for", "unexpected value '" + purpose + "'");
  }
  const json& figures = array(field(j, path, "figures"), path + ".figures");
  for (std::size_t i = 0; i < figures.size(); ++i)
    p.figures.push_back(read_figure(figures[i], path + ".figures[" + std::to_string(i) + "]"));
  return p;
}

cluster_confirmation confirmation_from_json(const json& j, const std::string& path, std::size_t n) {
  cluster_confirmation c;
  const json& complete = field(j, path, "complete");
  if (!complete.is_boolean()) fail(path + ".complete", "expected true or false");
  c.complete = complete.get<bool>();
  const json& candidates = array(field(j, path, "candidates"), path + ".candidates");
  for (std::size_t i = 0; i < candidates.size(); ++i)
    c.candidates.push_back(
        read_candidate(candidates[i], path + ".candidates[" + std::to_string(i) + "]", n));
  const json& pairs = array(field(j, path, "pairs"), path + ".pairs");
  for (std::size_t i = 0; i < pairs.size(); ++i)
    c.pairs.push_back(read_confirm_pair(pairs[i], path + ".pairs[" + std::to_string(i) + "]", n));
  const json& nodes = array(field(j, path, "nodes"), path + ".nodes");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string p = path + ".nodes[" + std::to_string(i) + "]";
    confirm_node node;
    node.node = node_index(field(nodes[i], p, "node"), p + ".node", n);
    const json& results = array(field(nodes[i], p, "results"), p + ".results");
    for (std::size_t k = 0; k < results.size(); ++k)
      node.results.push_back(case_from_json(results[k], p + ".results[" + std::to_string(k) + "]"));
    c.nodes.push_back(std::move(node));
  }
  const json& failures = array(field(j, path, "failures"), path + ".failures");
  for (std::size_t i = 0; i < failures.size(); ++i)
    c.failures.push_back(
        read_failure(failures[i], path + ".failures[" + std::to_string(i) + "]", n));
  return c;
}

}  // namespace

json cluster_to_json(const cluster_section& c) {
  json nodes = json::array();
  for (const auto& n : c.nodes) {
    json results = json::array();
    for (const auto& r : n.results)
      results.push_back(case_to_json(r));
    json jn = {{"name", n.name},
               {"ranks", n.ranks},
               {"status", to_string(n.status)},
               {"system", n.system},
               {"results", results}};
    if (!n.reason.empty()) jn["reason"] = n.reason;
    nodes.push_back(std::move(jn));
  }
  json pairs = json::array();
  for (const auto& m : c.pairs) {
    json jm = {{"benchmark", m.benchmark},
               {"params", m.params},
               {"bytes", m.bytes},
               {"metric", m.metric},
               {"unit", m.unit},
               {"better", m.better},
               {"median", optional_numbers_json(m.median)},
               {"p99", optional_numbers_json(m.p99)},
               {"count", m.count}};
    if (!m.samples.empty()) jm["samples"] = m.samples;
    pairs.push_back(std::move(jm));
  }
  json failures = json::array();
  for (const auto& f : c.failures)
    failures.push_back({{"a", f.a}, {"b", f.b}, {"benchmark", f.benchmark}, {"reason", f.reason}});
  json schedule = {{"rounds", c.rounds}, {"concurrency", c.concurrency}};
  if (c.plan.method != "all") {
    schedule["method"] = c.plan.method;
    schedule["matchings"] = c.plan.matchings;
    schedule["seed"] = c.plan.seed;
  }
  json out = {{"nodes", std::move(nodes)},
              {"schedule", std::move(schedule)},
              {"pairs", std::move(pairs)},
              {"failures", std::move(failures)}};
  if (!c.pair_list.empty()) {
    json list = json::array();
    for (const auto& p : c.pair_list)
      list.push_back(json::array({p.a, p.b, p.round}));
    out["pair_list"] = std::move(list);
  }
  if (!c.leaves.empty()) out["leaves"] = c.leaves;
  if (c.confirmation) out["confirmation"] = confirmation_to_json(*c.confirmation);
  return out;
}

cluster_section cluster_from_json(const json& j) {
  const std::string path = "cluster";
  cluster_section c;
  const json& nodes = array(field(j, path, "nodes"), path + ".nodes");
  for (std::size_t i = 0; i < nodes.size(); ++i)
    c.nodes.push_back(read_node(nodes[i], path + ".nodes[" + std::to_string(i) + "]"));
  const json& schedule = field(j, path, "schedule");
  c.rounds = whole(field(schedule, path + ".schedule", "rounds"), path + ".schedule.rounds");
  c.concurrency =
      whole(field(schedule, path + ".schedule", "concurrency"), path + ".schedule.concurrency");
  if (schedule.contains("method")) {
    const std::string p = path + ".schedule";
    c.plan.method = text(schedule["method"], p + ".method");
    if (c.plan.method != "all" && c.plan.method != "matchings")
      fail(p + ".method", "unexpected value '" + c.plan.method + "'");
    c.plan.matchings = whole(field(schedule, p, "matchings"), p + ".matchings");
    c.plan.seed = whole(field(schedule, p, "seed"), p + ".seed");
  }
  if (j.contains("pair_list")) {
    const std::string p = path + ".pair_list";
    const json& list = array(j["pair_list"], p);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string at = p + "[" + std::to_string(i) + "]";
      const json& e = array(list[i], at);
      if (e.size() != 3) fail(at, "expected [a, b, round]");
      planned_pair pp{whole(e[0], at + "[0]"), whole(e[1], at + "[1]"), whole(e[2], at + "[2]")};
      if (pp.a >= c.nodes.size() || pp.b >= c.nodes.size() || pp.a >= pp.b)
        fail(at, "not a pair a < b of the listed nodes");
      c.pair_list.push_back(pp);
    }
    if (c.pair_list.empty()) fail(p, "expected at least one pair");
  }
  if (j.contains("leaves")) {
    const std::string p = path + ".leaves";
    const json& leaves = array(j["leaves"], p);
    if (leaves.size() != c.nodes.size()) fail(p, "expected one entry per node");
    for (std::size_t i = 0; i < leaves.size(); ++i)
      c.leaves.push_back(text(leaves[i], p + "[" + std::to_string(i) + "]"));
  }
  const std::size_t pairs = slot_count(c);
  const json& measurements = array(field(j, path, "pairs"), path + ".pairs");
  for (std::size_t i = 0; i < measurements.size(); ++i)
    c.pairs.push_back(
        read_pairs(measurements[i], path + ".pairs[" + std::to_string(i) + "]", pairs));
  const json& failures = array(field(j, path, "failures"), path + ".failures");
  for (std::size_t i = 0; i < failures.size(); ++i)
    c.failures.push_back(
        read_failure(failures[i], path + ".failures[" + std::to_string(i) + "]", c.nodes.size()));
  if (j.contains("confirmation"))
    c.confirmation =
        confirmation_from_json(j["confirmation"], path + ".confirmation", c.nodes.size());
  return c;
}

}  // namespace gpubench::core
