#include "reports/views/views.hpp"

#include <algorithm>
#include <map>

#include "reports/views/cpu_cost_view.hpp"
#include "reports/views/view_blocks.hpp"

namespace gpubench::reports::views {

using namespace model;

std::string view_key(const std::string& benchmark) {
  if (benchmark.rfind("net.", 0) == 0) {
    const auto last = benchmark.rfind('.');
    if (last > 3) return "net" + benchmark.substr(last);
  }
  return benchmark;
}

std::string view_title(const std::string& key) {
  static const std::map<std::string, std::string> titles = {
      {"memory.host.copy", "Host memory copy"},
      {"gpu.h2d", "Host to GPU copies"},
      {"gpu.d2h", "GPU to host copies"},
      {"gpu.bidir", "Host and GPU copies, both directions"},
      {"gpu.p2p.bandwidth", "GPU to GPU bandwidth"},
      {"gpu.p2p.latency", "GPU to GPU latency"},
      {"gpu.host.latency", "GPU to host memory latency"},
      {"net.latency", "Network latency: TCP and RDMA"},
      {"net.bandwidth", "Network bandwidth: TCP and RDMA"},
      {"coll.allreduce", "Allreduce across nodes"},
  };
  const auto it = titles.find(key);
  return it == titles.end() ? key : it->second;
}

section generic_view(const std::string& title, std::vector<case_ref> cases,
                     const reference_set& refs) {
  label_cases(cases);
  const auto ok = measured(cases);
  section s{title, 1, {}};
  if (ok.empty()) {
    append_common_blocks(s, cases, ok, {});
    return s;
  }
  const auto& first = *ok.front().result;
  const bool latency = first.better == "lower";
  s.blocks.emplace_back(paragraph{
      std::to_string(ok.size()) + " variant(s) measured. The chart plots the median " +
      first.metric + " (" + first.unit + ", " + (latency ? "lower" : "higher") +
      " is better) against message size" +
      (latency ? "; the shaded band spans p50 to p99." : "; dashed lines are line rates.")});
  const auto matched = matching_references(ok, refs);
  if (has_size_axis(ok)) s.blocks.emplace_back(size_chart(title, ok, matched));
  s.blocks.emplace_back(summary_table(ok));
  append_common_blocks(s, cases, ok, matched);
  return s;
}

measurement_parts measurement_sections(const std::vector<run_input>& runs,
                                       const reference_set& refs) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<case_ref>> views;
  for (const auto& run : runs)
    for (const auto& c : run.file.results) {
      const std::string key = view_key(c.benchmark);
      if (!views.contains(key)) order.push_back(key);
      views[key].push_back({&run, &c, {}});
    }
  measurement_parts out;
  for (const auto& key : order) {
    auto& cases = views[key];
    if (measured(cases).empty()) continue;  // the appendix lists what was not measured
    std::string ids;
    for (const auto& c : cases)
      if (ids.find(c.result->benchmark) == std::string::npos)
        ids += (ids.empty() ? "" : ", ") + c.result->benchmark;
    const std::string title = view_title(key) + " (" + ids + ")";
    // Every point of the view, labelled by everything that differs (src/dst included).
    auto all = measured(cases);
    label_cases(all);
    out.appendix.push_back({title, 2, {point_table(all)}});
    if (key.rfind("gpu.p2p.", 0) == 0)
      out.views.push_back(pair_view(title, std::move(cases), refs));
    else if (key == "coll.allreduce")
      out.views.push_back(allreduce_view(title, std::move(cases), refs));
    else if (key.rfind("net.", 0) == 0) {
      auto s = generic_view(title, cases, refs);
      append_cpu_comparison(s, measured(cases));  // TCP against RDMA in like modes only
      out.views.push_back(std::move(s));
    } else {
      out.views.push_back(generic_view(title, std::move(cases), refs));
    }
  }
  return out;
}

}  // namespace gpubench::reports::views
