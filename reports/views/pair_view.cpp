// GPU pair matrices: one heatmap (and the same matrix as a table) per combination of the
// parameters other than the pair itself, e.g. per copy engine and direction.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "reports/model/text_format.hpp"
#include "reports/views/view_blocks.hpp"
#include "reports/views/views.hpp"

namespace gpubench::reports::views {

using namespace model;

namespace {

// The parameters naming a pair's two GPUs, as the case's kind declares them ("src" and "dst",
// "gpu" and "peer").
struct ends {
  std::string from, to;
};
ends ends_of(const case_ref& c) {
  const auto& e = c.result->kind.endpoints;
  return e.size() >= 2 ? ends{e[0], e[1]} : ends{"src", "dst"};
}

bool is_pair(const case_ref& c) {
  const auto [from, to] = ends_of(c);
  return c.result->params.contains(from) && c.result->params.contains(to);
}

// Sorts GPU indices numerically and anything else as text.
bool label_less(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() < b.get<double>();
  return param_text(a) < param_text(b);
}

}  // namespace

section pair_view(const std::string& title, std::vector<case_ref> cases,
                  const reference_set& refs) {
  if (!std::all_of(cases.begin(), cases.end(), is_pair))
    return generic_view(title, std::move(cases), refs);
  // link (nvlink/pcie) belongs to the pair, so it is shown in the cell, not as a group.
  const auto pair = ends_of(cases.front());
  label_cases(cases, {pair.from, pair.to, "link"});
  const auto ok = measured(cases);
  if (ok.empty()) return generic_view(title, std::move(cases), refs);  // says why, no chart
  section s{title, 1, {}};
  const auto& first = *ok.front().result;
  const bool latency = first.better == "lower";
  s.blocks.emplace_back(paragraph{"Each cell is the median " + first.metric + " (" + first.unit +
                                  ") from the GPU in the "
                                  "row to the GPU in the column, at the " +
                                  (latency ? "smallest" : "largest") + " message size measured. " +
                                  (latency ? "Lower" : "Higher") + " is better."});

  std::vector<std::string> groups;
  std::map<std::string, std::vector<case_ref>> by_group;
  for (const auto& c : ok) {
    if (!by_group.contains(c.label)) groups.push_back(c.label);
    by_group[c.label].push_back(c);
  }
  const bool one_group = groups.size() == 1 && groups.front() == first.benchmark;
  for (const auto& g : groups) {
    const auto& members = by_group[g];
    std::vector<nlohmann::json> srcs, dsts;
    for (const auto& c : members) {
      srcs.push_back(c.result->params.at(pair.from));
      dsts.push_back(c.result->params.at(pair.to));
    }
    for (auto* v : {&srcs, &dsts}) {
      std::sort(v->begin(), v->end(), label_less);
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    heatmap h;
    h.title = one_group ? title : title + ": " + g;
    h.row_label = "src";
    h.col_label = "dst";
    h.unit = first.unit;
    h.higher_is_better = !latency;
    for (const auto& v : srcs)
      h.rows.push_back("GPU " + param_text(v));
    for (const auto& v : dsts)
      h.cols.push_back("GPU " + param_text(v));
    h.values.assign(srcs.size(), std::vector<double>(dsts.size(), std::nan("")));
    table t;
    t.caption = h.title + " (" + first.unit + ")";
    t.header = {"src \\ dst"};
    for (const auto& c : h.cols)
      t.header.push_back(c);
    t.numeric.assign(t.header.size(), true);
    t.numeric[0] = false;
    std::vector<std::vector<std::string>> cells(srcs.size(),
                                                std::vector<std::string>(dsts.size(), "-"));
    std::uint64_t size = 0;
    for (const auto& c : members) {
      const auto* p = latency ? smallest_point(*c.result) : largest_point(*c.result);
      if (!p) continue;
      size = std::max(size, p->bytes);
      const auto r =
          std::find(srcs.begin(), srcs.end(), c.result->params.at(pair.from)) - srcs.begin();
      const auto d =
          std::find(dsts.begin(), dsts.end(), c.result->params.at(pair.to)) - dsts.begin();
      h.values[r][d] = p->stats.median;
      std::string cell = format_value(p->stats.median);
      if (c.result->params.contains("link"))
        cell += " (" + param_text(c.result->params.at("link")) + ")";
      cells[r][d] = cell;
    }
    if (size) t.caption += ", at " + format_size(size);
    for (std::size_t r = 0; r < srcs.size(); ++r) {
      std::vector<std::string> row = {h.rows[r]};
      row.insert(row.end(), cells[r].begin(), cells[r].end());
      t.rows.push_back(std::move(row));
    }
    s.blocks.emplace_back(std::move(h));
    s.blocks.emplace_back(std::move(t));
  }
  // The skip table lists pairs one by one, so it names the pair.
  for (auto& c : cases)
    c.label = "GPU " + param_text(c.result->params.at(pair.from)) + " -> GPU " +
              param_text(c.result->params.at(pair.to)) + (one_group ? "" : ", " + c.label);
  append_common_blocks(s, cases, matching_references(ok, refs));
  return s;
}

}  // namespace gpubench::reports::views
