// A cluster's pair measurements as the report shows them, read through the section's slots
// (core/cluster.hpp), so a sparse sweep (--pairs matchings) and every pair read alike: a
// bandwidth case measured both ways is one directed view (row = sender, column = receiver), any
// other measurement one symmetric view; and each node's median per view, sending and receiving
// apart.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace gpubench::reports::cluster {

struct pair_view {
  std::string label;  // "<benchmark> 1 MiB (streams=1)", without the direction
  // A symmetric view's measurement, or a directed view's "to_peer" way (b -> a in pair {a < b}).
  const core::pair_measurement* forward = nullptr;
  // A directed view's "from_peer" way (a -> b); none for a symmetric view.
  const core::pair_measurement* backward = nullptr;

  bool directed() const { return backward != nullptr; }
  const core::pair_measurement& first() const { return *forward; }
};

// One view per measurement, the two ways of a bandwidth case (same benchmark, size and
// parameters but the direction) joined into one, in the order of the file. A way measured alone
// (every file before both ways were measured) stays a symmetric view, as it was shown then.
std::vector<pair_view> pair_views(const core::cluster_section& c);

// One measured figure: `from` sends, `to` receives (a directed view); for a symmetric view
// from < to, as planned.
struct pair_cell {
  std::size_t from = 0;
  std::size_t to = 0;
  double value = 0;
};

// Every figure of a view, slot by slot (no N^2 walk over a sparse sweep).
std::vector<pair_cell> view_cells(const core::cluster_section& c, const pair_view& v);

// Each node's median over its figures with answering nodes (nullopt: none): a directed view's
// as sender and as receiver, a symmetric view's over every pair of the node (in `sends`).
struct node_medians {
  std::vector<std::optional<double>> sends;
  std::vector<std::optional<double>> receives;
};
node_medians view_node_medians(const core::cluster_section& c, const pair_view& v);

// Slots with at least one figure in any measurement.
std::size_t measured_pairs(const core::cluster_section& c);

}  // namespace gpubench::reports::cluster
