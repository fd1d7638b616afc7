#include "reports/render/pdf_table.hpp"

#include <algorithm>
#include <numeric>

namespace gpubench::reports::render {

using namespace model;

namespace {

// Long text (paths, reasons) wraps: it asks for at most this much on one line ...
constexpr double natural_cap = 220;
// ... and is still readable wrapped at this width, where a short cell must stay whole.
constexpr double readable_cap = 90;
constexpr double narrowest_column = 14;

// The estimate from glyph advances plus a little, so rounding can never wrap a cell that was
// measured to fit.
double with_slack(double w) {
  return w * 1.01 + 0.5 + 2 * table_cell_pad;
}

double longest_word(const std::string& s, const text_style& style, text_engine& text) {
  double widest = 0;
  std::size_t start = 0;
  while (start <= s.size()) {
    const auto end = std::min(s.find(' ', start), s.size());
    if (end > start)
      widest = std::max(widest, text.natural_width(s.substr(start, end - start), style));
    start = end + 1;
  }
  return widest;
}

double sum_readable(const std::vector<column_need>& need, const std::vector<std::size_t>& cols) {
  double s = 0;
  for (auto c : cols)
    s += need[c].readable;
  return s;
}

// Each column's width between two of its needs, the same fraction of the way for all.
double between(double lo, double hi, double sum_lo, double sum_hi, double width) {
  return lo + (hi - lo) * (width - sum_lo) / (sum_hi - sum_lo);
}

// Readable widths grown first towards whole cells, then towards natural widths; squashed in
// proportion only when even the readable widths do not fit (one column wider than the page).
std::vector<double> fit_widths(const std::vector<column_need>& need,
                               const std::vector<std::size_t>& cols, double width) {
  double natural = 0, cells = 0, readable = 0;
  for (auto c : cols) {
    natural += need[c].natural;
    cells += need[c].cells;
    readable += need[c].readable;
  }
  std::vector<double> w;
  for (auto c : cols) {
    const auto& n = need[c];
    if (natural <= width)
      w.push_back(n.natural);
    else if (cells <= width)
      w.push_back(between(n.cells, n.natural, cells, natural, width));
    else if (readable <= width)
      w.push_back(between(n.readable, n.cells, readable, cells, width));
    else
      w.push_back(n.readable * width / readable);
  }
  return w;
}

table_part part_of(const std::vector<column_need>& need, std::vector<std::size_t> cols,
                   double width) {
  table_part p;
  p.whole_words = sum_readable(need, cols) <= width;
  p.widths = fit_widths(need, cols, width);
  p.columns = std::move(cols);
  return p;
}

// Consecutive columns into groups no wider than `capacity` (a wider column alone).
std::vector<std::vector<std::size_t>> group_columns(const std::vector<column_need>& need,
                                                    const std::vector<std::size_t>& cols,
                                                    double capacity) {
  std::vector<std::vector<std::size_t>> groups;
  double used = 0;
  for (auto c : cols) {
    if (groups.empty() || used + need[c].readable > capacity) {
      groups.emplace_back();
      used = 0;
    }
    groups.back().push_back(c);
    used += need[c].readable;
  }
  return groups;
}

}  // namespace

std::vector<column_need> measure_columns(const table& t, text_engine& text) {
  const text_style cell{table_font_size, false};
  const text_style head{table_font_size, true};
  std::vector<double> widest(t.header.size(), 0);
  for (const auto& r : t.rows)
    for (std::size_t i = 0; i < r.size() && i < widest.size(); ++i)
      widest[i] = std::max(widest[i], text.natural_width(r[i], cell));
  std::vector<column_need> need(t.header.size());
  for (std::size_t i = 0; i < need.size(); ++i) {
    const double readable =
        std::max(longest_word(t.header[i], head, text), std::min(widest[i], readable_cap));
    const double natural =
        std::min(std::max(text.natural_width(t.header[i], head), widest[i]), natural_cap);
    need[i].readable = std::max(with_slack(readable), narrowest_column);
    need[i].cells = std::max(with_slack(std::min(widest[i], natural_cap)), need[i].readable);
    need[i].natural = std::max(with_slack(natural), need[i].cells);
  }
  return need;
}

std::vector<table_part> split_columns(const std::vector<column_need>& need,
                                      const std::vector<std::string>& header, double width) {
  std::vector<std::size_t> all(need.size());
  std::iota(all.begin(), all.end(), 0);
  std::vector<std::size_t> fixed{0};
  if (header.size() > 1 && header[1] == "size") fixed.push_back(1);
  if (need.size() <= fixed.size() || sum_readable(need, all) <= width)
    return {part_of(need, all, width)};

  const std::vector<std::size_t> rest(all.begin() + static_cast<long>(fixed.size()), all.end());
  double widest = 0;
  for (auto c : rest)
    widest = std::max(widest, need[c].readable);
  const double budget = std::max(width - sum_readable(need, fixed), widest);
  // As few parts as the page allows, then the narrowest capacity that still needs no more:
  // parts of about equal width instead of full ones and a stub.
  const auto parts = group_columns(need, rest, budget).size();
  double lo = widest, hi = budget;
  for (int i = 0; i < 40 && hi - lo > 0.5; ++i) {
    const double mid = (lo + hi) / 2;
    (group_columns(need, rest, mid).size() <= parts ? hi : lo) = mid;
  }
  std::vector<table_part> out;
  for (auto& group : group_columns(need, rest, hi)) {
    auto columns = fixed;
    columns.insert(columns.end(), group.begin(), group.end());
    out.push_back(part_of(need, columns, width));
  }
  return out;
}

std::string part_caption(const std::string& caption, std::size_t part, std::size_t parts) {
  if (parts <= 1) return caption;
  const auto of = "(part " + std::to_string(part + 1) + " of " + std::to_string(parts) + ")";
  return caption.empty() ? of : caption + " " + of;
}

}  // namespace gpubench::reports::render
