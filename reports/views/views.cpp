#include "reports/views/views.hpp"

#include <algorithm>
#include <map>

#include "reports/model/kind_text.hpp"
#include "reports/views/cpu_cost_view.hpp"
#include "reports/views/view_blocks.hpp"

namespace gpubench::reports::views {

using namespace model;

std::string view_key(const core::case_result& c) {
  const auto& k = c.kind;
  if (k.is(core::paths::host_memory)) return k.path;
  if (k.is(core::paths::host_gpu)) return k.path + " " + k.direction + " " + c.metric;
  if (k.is(core::paths::gpu_gpu) || k.is(core::paths::network)) return k.path + " " + c.metric;
  if (k.is(core::paths::collective)) return k.path + " " + k.operation;
  return c.benchmark;  // a kind this reader does not know: a view of its own
}

namespace {

// "TCP and RDMA": the transports a network view holds, TCP and RDMA first.
std::string transports_text(const std::vector<case_ref>& cases) {
  std::vector<std::string> names;
  for (const auto& c : cases)
    if (std::find(names.begin(), names.end(), c.result->kind.transport) == names.end())
      names.push_back(c.result->kind.transport);
  std::stable_sort(names.begin(), names.end(), [](const auto& a, const auto& b) {
    return transport_rank(a) < transport_rank(b);
  });
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + transport_title(names[i]);
  return out;
}

}  // namespace

std::string view_title(const std::vector<case_ref>& cases) {
  const auto& c = *cases.front().result;
  const auto& k = c.kind;
  const bool latency = c.metric == "latency";
  if (k.is(core::paths::host_memory)) return "Host memory copy";
  if (k.is(core::paths::host_gpu)) {
    if (latency) return "GPU to host memory latency";
    if (k.direction == core::directions::to_gpu) return "Host to GPU copies";
    if (k.direction == core::directions::to_host) return "GPU to host copies";
    return "Host and GPU copies, both directions";
  }
  if (k.is(core::paths::gpu_gpu)) return latency ? "GPU to GPU latency" : "GPU to GPU bandwidth";
  if (k.is(core::paths::network))
    return std::string(latency ? "Network latency: " : "Network bandwidth: ") +
           transports_text(cases);
  if (k.is(core::paths::collective)) {
    // "across nodes" only where more than one node took part; nothing where a case does not
    // say (an nccl-tests log without its device lines).
    double most = 0;
    for (const auto& r : cases) {
      const auto it = r.result->params.find("nodes");
      if (it == r.result->params.end() || !it->is_number()) return operation_title(k.operation);
      most = std::max(most, it->get<double>());
    }
    return operation_title(k.operation) + (most > 1 ? " across nodes" : " within one node");
  }
  return c.benchmark;
}

section generic_view(const std::string& title, std::vector<case_ref> cases,
                     const reference_set& refs) {
  label_cases(cases);
  const auto ok = measured(cases);
  section s{title, 1, {}};
  if (ok.empty()) {
    append_common_blocks(s, cases, {});
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
  append_common_blocks(s, cases, matched);
  return s;
}

measurement_parts measurement_sections(const std::vector<run_input>& runs,
                                       const reference_set& refs) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<case_ref>> views;
  for (const auto& run : runs)
    for (const auto& c : run.file.results) {
      const std::string key = view_key(c);
      if (!views.contains(key)) order.push_back(key);
      views[key].push_back({&run, &c, {}});
    }
  // Many runs: the views draw the first; the comparison section sets the others against it.
  const bool first_only = runs.size() > side_by_side_runs;
  measurement_parts out;
  for (const auto& key : order) {
    auto& cases = views[key];
    // The title names what was measured (a skipped RDMA case is named in the section's "Not
    // measured" line, not in its title).
    auto all = measured(cases);
    if (all.empty()) continue;  // the appendix lists what was not measured
    std::string ids;
    for (const auto& c : all)
      if (ids.find(c.result->benchmark) == std::string::npos)
        ids += (ids.empty() ? "" : ", ") + c.result->benchmark;
    const std::string title = view_title(all) + " (" + ids + ")";
    // Every point of the view and the path of each variant, labelled by everything that
    // differs (src/dst included).
    label_cases(all);
    section appendix{title, 2, {point_table(all)}};
    if (auto t = path_table(all); !t.rows.empty()) appendix.blocks.emplace_back(std::move(t));
    out.appendix.push_back(std::move(appendix));
    if (first_only) std::erase_if(cases, [&](const case_ref& c) { return c.run != &runs.front(); });
    if (measured(cases).empty()) continue;
    const auto& kind = cases.front().result->kind;
    section view;
    if (kind.is(core::paths::gpu_gpu)) {
      view = pair_view(title, std::move(cases), refs);
    } else if (kind.is(core::paths::collective)) {
      view = allreduce_view(title, std::move(cases), refs);
    } else if (kind.is(core::paths::network)) {
      view = generic_view(title, cases, refs);
      append_cpu_comparison(view, measured(cases));  // TCP against RDMA in like modes only
    } else {
      view = generic_view(title, std::move(cases), refs);
    }
    if (first_only)
      view.blocks.insert(view.blocks.begin(),
                         note{"Drawn from " + runs.front().label + ", the first of " +
                              std::to_string(runs.size()) +
                              " runs: the comparison across runs sets the others against it, "
                              "and Appendix B has every point of every run."});
    out.views.push_back(std::move(view));
  }
  return out;
}

}  // namespace gpubench::reports::views
