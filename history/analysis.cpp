#include "history/analysis.hpp"

#include "history/series_key.hpp"

namespace gpubench::history {

namespace {

std::vector<double> values_of(const series& s, std::size_t begin, std::size_t end) {
  std::vector<double> v;
  for (std::size_t i = begin; i < end; ++i)
    v.push_back(s.points[i].value);
  return v;
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> fingerprint_segments(const series& s) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < s.points.size(); ++i)
    if (i == 0 || s.points[i].fingerprint != s.points[i - 1].fingerprint)
      out.emplace_back(i, i + 1);
    else
      out.back().second = i + 1;
  return out;
}

std::vector<series_analysis> analyse(std::vector<series> all,
                                     const std::map<std::string, nlohmann::json>& fingerprints,
                                     const analysis_options& options) {
  std::vector<series_analysis> out;
  std::vector<series_change> found;  // every candidate, in query order
  std::vector<std::size_t> owner;    // its series in `out`
  std::vector<double> p_values;      // one per candidate
  std::size_t quiet = 0;             // segments without a candidate: p = 1 each
  for (auto& s : all) {
    series_analysis a;
    for (const auto& [begin, end] : fingerprint_segments(s)) {
      if (begin > 0) {
        fingerprint_event e{begin, {}};
        const auto before = fingerprints.find(s.points[begin - 1].fingerprint);
        const auto after = fingerprints.find(s.points[begin].fingerprint);
        if (before != fingerprints.end() && after != fingerprints.end())
          e.changes = fingerprint_changes(before->second, after->second);
        a.events.push_back(std::move(e));
      }
      const auto v = values_of(s, begin, end);
      const auto points = find_change_points(v, options.change);
      if (points.empty()) ++quiet;
      for (const auto& cp : points) {
        found.push_back({begin + cp.index, cp});
        owner.push_back(out.size());
        p_values.push_back(cp.p);
      }
    }
    a.data = std::move(s);
    out.push_back(std::move(a));
  }
  // Every segment tested is a hypothesis: the quiet ones count too, each p = 1.
  p_values.insert(p_values.end(), quiet, 1.0);
  const auto keep = benjamini_hochberg(p_values, options.fdr);
  for (std::size_t i = 0; i < found.size(); ++i)
    if (keep[i]) out[owner[i]].changes.push_back(found[i]);
  return out;
}

std::vector<double> latest_segment(const series& s, const std::string& fingerprint,
                                   const change_options& options) {
  const auto segments = fingerprint_segments(s);
  if (segments.empty() || s.points.back().fingerprint != fingerprint) return {};
  auto v = values_of(s, segments.back().first, segments.back().second);
  const auto points = find_change_points(v, options);
  if (!points.empty()) v.erase(v.begin(), v.begin() + static_cast<long>(points.back().index));
  return v;
}

}  // namespace gpubench::history
