#include "reports/import/nvbandwidth_cases.hpp"

#include <cctype>
#include <set>

#include <fmt/format.h>

namespace gpubench::reports::import {

namespace {

bool has(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

// What a testcase measured, from its name (nvbandwidth's names are stable since v0.2).
struct test_meaning {
  bool host = false;      // a host-GPU copy; otherwise GPU-GPU
  bool all = false;       // every GPU at once (all_to_host, host_to_all, all_to_one, ...)
  std::string direction;  // host: to_gpu, to_host, both
  std::string measured;   // bidirectional host copies: which of the two the figure is
  std::string engine;     // ce, sm
  std::string access;     // GPU-GPU: read, write
  bool bidirectional = false;
};

std::optional<test_meaning> meaning_of(const std::string& name) {
  test_meaning m;
  if (name.ends_with("_ce"))
    m.engine = "ce";
  else if (name.ends_with("_sm"))
    m.engine = "sm";
  else
    return std::nullopt;
  if (has(name, "latency") || has(name, "local_copy")) return std::nullopt;
  m.bidirectional = has(name, "bidirectional");
  const bool to_gpu = starts_with(name, "host_to_");
  const bool to_host = has(name, "_to_host");
  if (to_gpu || to_host) {
    m.host = true;
    m.all = starts_with(name, "host_to_all") || starts_with(name, "all_to_host");
    m.measured = to_gpu ? "to_gpu" : "to_host";
    m.direction = m.bidirectional ? "both" : m.measured;
    return m;
  }
  if (!has(name, "device_to_device") && !has(name, "all_to_one") && !has(name, "one_to_all"))
    return std::nullopt;
  m.all = has(name, "all_to_one") || has(name, "one_to_all");
  m.access = has(name, "_read") ? "read" : "write";
  return m;
}

// "GPU(row) -> GPU(column)": the row copies to the column; "<-": the column to the row.
bool row_is_source(const std::string& title) {
  return !has(title, "<-") || has(title, "<->");
}

std::string short_name(const std::string& test) {
  std::string id;
  for (char c : test)
    id += (std::isalnum(static_cast<unsigned char>(c)) != 0) ? static_cast<char>(std::tolower(c))
                                                             : '_';
  return id;
}

}  // namespace

core::result_file nvbandwidth_result(const nvbandwidth_run& run, const import_options& o) {
  core::result_file file = imported_file(o);
  core::import_source src{"nvbandwidth", run.version, run.command, o.name, ""};
  std::set<std::string> hosts;
  for (const auto& d : run.devices)
    if (!d.host.empty()) hosts.insert(d.host);
  for (const auto& t : run.tests) {
    src.test = t.name;
    const std::string id = "nvbandwidth." + short_name(t.name);
    const auto m = meaning_of(t.name);
    if (!m || (!t.status.empty() && t.status != "Passed")) {
      // Not a copy bandwidth gpubench has a kind for, or not run: said, never guessed at.
      core::case_result c = imported_case(id, {}, src, true);
      if (t.run > 0) c.params["run"] = t.run;
      c.status = core::case_status::skipped;
      const bool not_run = !t.status.empty() && t.status != "Passed";
      c.reason = not_run
                     ? fmt::format("nvbandwidth reported the testcase as {}{}", t.status,
                                   t.message.empty() ? "" : ": " + t.message)
                     : "an nvbandwidth testcase gpubench has no kind for (not a copy bandwidth)";
      file.results.push_back(std::move(c));
      continue;
    }
    if (t.title.find("(GB/s)") == std::string::npos)
      fail(o, t.line, "a matrix in GB/s ('... bandwidth (GB/s)')", t.title);
    const bool row_src = row_is_source(t.title);
    for (std::size_t r = 0; r < t.cells.size(); ++r)
      for (std::size_t col = 0; col < t.cells[r].size(); ++col) {
        if (!t.cells[r][col]) continue;
        nlohmann::json params = {{"engine", m->engine}};
        core::measure_kind kind;
        if (m->host) {
          // One row (the host) and a column per GPU; the all_* testcases print it likewise.
          params["gpu"] = static_cast<int>(col);
          params["memory"] = "pinned";  // nvbandwidth's host buffers are page-locked
          if (m->bidirectional) params["measured"] = m->measured;
          if (m->all) params["concurrent"] = "all GPUs";
          // Every GPU copying at once measures the host's share, not one GPU's path: kept,
          // but with no kind, so page one's per-path rows and sibling rules never see it.
          if (!m->all) kind = core::host_gpu_kind(m->direction, {"gpu"});
        } else if (m->all) {
          params["gpu"] = static_cast<int>(col);
          params["access"] = m->access;
          params["concurrent"] = "all GPUs";
          params["direction"] = m->bidirectional ? "bidir" : "uni";
        } else {
          params["src"] = static_cast<int>(row_src ? r : col);
          params["dst"] = static_cast<int>(row_src ? col : r);
          params["access"] = m->access;
          params["direction"] = m->bidirectional ? "bidir" : "uni";
          kind = core::gpu_gpu_kind({"src", "dst"});
        }
        core::case_result c = imported_case(id, kind, src, true);
        // A multinode run's processes name their hosts: whether a pair crosses hosts is what
        // says how far the NVLink domain reaches.
        if (!m->host && !m->all && hosts.size() > 1) {
          const auto host_of = [&](const nlohmann::json& index) {
            for (const auto& d : run.devices)
              if (d.index == index.get<int>()) return d.host;
            return std::string();
          };
          c.context["src_host"] = host_of(params.at("src"));
          c.context["dst_host"] = host_of(params.at("dst"));
        }
        // A bidirectional testcase's matrices (each direction, then their total) are cases
        // of their own; several runs in one file are told apart by their order.
        if (!t.part.empty()) params["measured"] = t.part;
        if (t.run > 0) params["run"] = t.run;
        c.params = std::move(params);
        if (t.cv) c.context["cv_reported"] = *t.cv;
        if (t.sum) c.context["sum_reported"] = *t.sum;
        if (hosts.size() > 1) c.context["hosts"] = hosts;
        // nvbandwidth prints one figure per cell (the median of its trials) and not the
        // buffer size: the point is 0 bytes, "size not stated".
        c.points.push_back(point_of(0, {*t.cells[r][col]}));
        file.results.push_back(std::move(c));
      }
  }
  nlohmann::json gpus = nlohmann::json::array();
  const std::string first = run.devices.empty() ? "" : run.devices.front().host;
  for (const auto& d : run.devices) {
    if (d.host != first) continue;
    nlohmann::json g = {{"index", d.index}, {"name", d.name}};
    if (!d.bus.empty()) g["pci_bus_id"] = d.bus;
    gpus.push_back(std::move(g));
  }
  if (!gpus.empty()) file.system["gpus"] = gpus;
  if (!first.empty()) file.system["host"] = first;
  if (first.empty() && !run.prompt_host.empty()) file.system["host"] = run.prompt_host;
  nlohmann::json sw = nlohmann::json::object();
  if (!run.driver.empty()) sw["driver"] = run.driver;
  if (!run.cuda_runtime.empty()) sw["cuda_runtime"] = run.cuda_runtime;
  if (!sw.empty()) file.system["software"] = sw;
  return file;
}

}  // namespace gpubench::reports::import
