#include "reports/page_one/projection/fit_blocks.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "reports/model/text_format.hpp"
#include "reports/page_one/projection/strategy.hpp"

namespace gpubench::reports::page_one::projection {

using namespace model;

namespace {

// Rounded first, so that a residual of -1e-12 reads +0.0 %, not -0.0 %.
std::string signed_percent(double fraction) {
  double tenths = std::round(1000 * fraction);
  if (tenths == 0) tenths = 0;
  return fmt::format("{:+.1f} %", tenths / 10);
}

}  // namespace

std::vector<block> fit_blocks(const std::string& run_label,
                              const std::vector<strategy_group>& groups,
                              const report_options& options) {
  std::vector<block> out;
  out.push_back(paragraph{
      run_label +
      "The alpha-beta fit, used only for the rows marked extrapolated: time(n, S) = a(n) x "
      "alpha + f(n) x S / B, n the ranks of the communicator, a(n) the latency steps of a ring "
      "(allreduce 2(n-1); all-gather, reduce-scatter and all-to-all n-1) and f(n) the "
      "operation's bus-bandwidth factor (allreduce 2(n-1)/n; the others (n-1)/n), so B is the "
      "bus bandwidth the curve tends to. Fitted by least squares on the relative error to every "
      "measured point of the cases of two or more nodes (all sizes; the ranks inside one node "
      "talk over links a ring over the network does not model), or of every case of two or "
      "more ranks when those give no fit; a negative alpha is refitted as 0. Extrapolated node "
      "counts keep the ranks per node of the largest measured "
      "count, and only sizes inside the measured ones are extrapolated. Residual = (fit - "
      "measured) / measured. A flat ring is what it models: tree, hierarchical and "
      "topology-aware algorithms, protocol switches with size, and congestion at scale are "
      "not in it."});
  table fits;
  fits.caption = run_label + "Alpha-beta fit per group and operation";
  fits.header = {"group",  "operation",    "alpha",          "B (bus)",
                 "points", "rms residual", "max |residual|", "cases fitted"};
  fits.numeric = {false, false, true, true, true, true, true, false};
  for (const auto& g : groups)
    for (const auto& oc : g.ops) {
      if (!oc.fit) {
        fits.rows.push_back({g.label, operation_text(oc.operation),
                             "no fit (fewer than two points of two or more ranks, or B <= 0)", "-",
                             "-", "-", "-", "-"});
        continue;
      }
      const auto& f = *oc.fit;
      fits.rows.push_back({g.label, operation_text(oc.operation),
                           fmt::format("{:.4g} us", f.alpha_seconds * 1e6),
                           fmt::format("{:.4g} GB/s", f.bus_bytes_per_s / 1e9),
                           std::to_string(f.points), fmt::format("{:.1f} %", 100 * f.rms_residual),
                           fmt::format("{:.1f} %", 100 * f.max_residual),
                           oc.fit_min_nodes >= 2 ? "two or more nodes" : "two or more ranks"});
    }
  out.push_back(std::move(fits));
  // The fit against the measurement at the sizes the step sends.
  std::vector<std::pair<std::string, double>> sizes;
  for (const auto& ms : models_of(options.training))
    for (const auto& m : messages_per_step(options.training, ms.parameters))
      if (std::find(sizes.begin(), sizes.end(), std::pair{m.operation, m.bytes}) == sizes.end())
        sizes.push_back({m.operation, m.bytes});
  // Beyond this relative miss at a size the step sends, the section says so in a note.
  constexpr double misfit_limit = 0.2;
  std::vector<std::string> misfits;
  table check;
  check.caption = run_label +
                  "The fit against the measurement at the sizes the step sends (measured: "
                  "interpolated log-log between measured sizes)";
  check.header = {"group", "operation", "size", "nodes (ranks)", "measured", "fit", "residual"};
  check.numeric = {false, false, true, true, true, true, true};
  for (const auto& g : groups)
    for (const auto& oc : g.ops) {
      if (!oc.fit) continue;
      for (const auto& [op, bytes] : sizes) {
        if (op != oc.operation) continue;
        for (const auto& cv : oc.curves) {
          if (cv.ranks < 2 || cv.nodes < oc.fit_min_nodes) continue;
          const auto measured = interpolate_seconds(cv.points, bytes);
          const auto fitted = predict_seconds(*oc.fit, oc.operation, cv.ranks, bytes);
          if (!measured || !fitted || !(*measured > 0)) continue;
          check.rows.push_back({g.label, operation_text(oc.operation), size_text(bytes),
                                fmt::format("{} ({:g})", cv.nodes, cv.ranks),
                                fmt::format("{:.4g} ms", *measured * 1e3),
                                fmt::format("{:.4g} ms", *fitted * 1e3),
                                signed_percent((*fitted - *measured) / *measured)});
          if (std::abs(*fitted - *measured) > misfit_limit * *measured &&
              std::find(misfits.begin(), misfits.end(), g.label) == misfits.end())
            misfits.push_back(g.label);
        }
      }
    }
  if (!check.rows.empty()) out.push_back(std::move(check));
  for (const auto& label : misfits)
    out.push_back(note{fmt::format(
        "{}{}: the fit misses the measurement by more than {:.0f} % at a size this step sends; "
        "its extrapolated rows are no better than that (a ring over the network may not be how "
        "this library ran these sizes).",
        run_label, label, 100 * misfit_limit)});
  return out;
}

}  // namespace gpubench::reports::page_one::projection
