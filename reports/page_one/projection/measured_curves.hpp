// The measured curves a strategy's projection reads from one run: per group of parameters
// (backend, transport, ...), per operation the strategy needs (selected by the kind's
// operation, never by benchmark id), the time of one operation by size at each node count,
// and the alpha-beta fit of that operation; and which operations the run did not measure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "reports/page_one/projection/alpha_beta.hpp"
#include "reports/page_one/projection/projection_model.hpp"

namespace gpubench::reports::page_one::projection {

struct curve {
  long long nodes = 1;
  double ranks = 1;
  std::vector<size_time> points;  // sorted by size
};

struct op_curves {
  std::string operation;
  std::vector<curve> curves;  // by node count
  std::optional<alpha_beta> fit;
  long long fit_min_nodes = 1;  // the fit used the cases of this many nodes and more
  double ranks_per_node = 1;    // of the largest node count: extrapolated counts keep it
};

struct strategy_group {
  std::string label;                   // "mpi, tcp"
  std::vector<op_curves> ops;          // in the order of the operations asked for
  std::vector<long long> node_counts;  // measured for every operation of the group
};

struct run_curves {
  std::vector<strategy_group> groups;  // groups with one or more common node counts
  std::vector<std::string> missing;    // operations asked for that the run never measured
  std::vector<std::string> measured;   // collective operations the run measured at all
  bool multi_node = false;             // some operation was measured at two or more node counts
};

run_curves curves_for(const core::result_file& f, const std::vector<std::string>& operations);

// A message up to this many times the largest measured size is timed at that size's rate
// (the time grows with the size, as it does once the bandwidth has levelled off), marked; a
// larger one is not measured. A vendor's sweep that ends at 8 GiB still times a 14 GB gradient.
inline constexpr double held_size_factor = 4;

// The time of one operation of `bytes` at `nodes`: measured (interpolated log-log between
// measured sizes) at a measured node count, or held at the largest size's rate up to
// held_size_factor beyond it; from the fit beyond the largest measured node count, and then
// only up to that same size. Nothing otherwise.
struct op_time {
  double seconds = 0;
  bool extrapolated = false;  // from the fit, beyond the measured node counts
  bool held = false;          // beyond the largest measured size, at its rate
};
std::optional<op_time> time_at(const op_curves& c, long long nodes, double bytes);

// The measured range of an operation at a node count, for "not measured" cells: "largest
// measured: 128M".
std::string measured_range_text(const op_curves& c, double bytes);

}  // namespace gpubench::reports::page_one::projection
