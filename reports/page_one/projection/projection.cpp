// The training scaling projection section: per run, per model, the communication per step, the
// step time and the speedup of each collective group (backend, transport) at each measured
// node count and, marked as such, beyond it from the alpha-beta fit; with the formula, its
// inputs, the fit with its residuals and the arithmetic of one row, so the reader can check it.
#include "reports/page_one/projection/projection.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "reports/model/text_format.hpp"
#include "reports/page_one/projection/fit_blocks.hpp"
#include "reports/page_one/projection/measured_curves.hpp"
#include "reports/page_one/projection/projection_model.hpp"
#include "reports/page_one/projection/strategy.hpp"

namespace gpubench::reports::page_one::projection {

using namespace model;

namespace {

// Counts and fractions as typed: 24, 0.3, 4096 (not 24.00).
std::string fmt_g(double v) {
  return fmt::format("{:g}", v);
}
std::string secs(double s) {
  return fmt::format("{:.4g} s", s);
}
std::string millis(double s) {
  return fmt::format("{:.4g} ms", s * 1e3);
}
// "1 x allreduce of 100M", "2 x all-gather of 1.4G + 1 x reduce-scatter of 1.4G".
std::string messages_text(const std::vector<message>& msgs) {
  std::string t;
  for (const auto& m : msgs)
    t += fmt::format("{}{:g} x {} of {} ({})", t.empty() ? "" : " + ", m.per_step,
                     operation_text(m.operation), size_text(m.bytes), m.what);
  return t;
}

std::string operations_list(const std::vector<std::string>& ops) {
  std::string t;
  for (std::size_t i = 0; i < ops.size(); ++i)
    t += (i == 0 ? "" : i + 1 == ops.size() ? " and " : ", ") + operation_text(ops[i]);
  return t;
}

const op_curves& curves_of(const strategy_group& g, const std::string& operation) {
  return *std::find_if(g.ops.begin(), g.ops.end(),
                       [&](const op_curves& c) { return c.operation == operation; });
}

struct comm_result {
  double seconds = 0;
  bool extrapolated = false;
  bool held = false;  // a message beyond the largest measured size, timed at its rate
  const message* missing = nullptr;  // the message no time is known for
  std::vector<double> per_message;   // time of one operation of each message
};

comm_result comm_per_step(const strategy_group& g, const std::vector<message>& msgs,
                          long long nodes) {
  comm_result r;
  for (const auto& m : msgs) {
    const auto t = time_at(curves_of(g, m.operation), nodes, m.bytes);
    if (!t) {
      r.missing = &m;
      return r;
    }
    r.seconds += m.per_step * t->seconds;
    r.extrapolated = r.extrapolated || t->extrapolated;
    r.held = r.held || t->held;
    r.per_message.push_back(t->seconds);
  }
  return r;
}

struct row_math {
  comm_result comm, base;
  double step = 0, base_step = 0, speedup = 0, efficiency = 0;
  double share = 0;  // of the step spent communicating (what overlap does not hide)
  long long base_nodes = 1;
};

std::optional<row_math> compute(const strategy_group& g, const std::vector<message>& msgs,
                                long long n, const report_options& o) {
  row_math m;
  m.base_nodes = g.node_counts.front();
  m.comm = comm_per_step(g, msgs, n);
  m.base = comm_per_step(g, msgs, m.base_nodes);
  if (m.comm.missing || m.base.missing) return std::nullopt;
  m.step = step_seconds(o.step_compute_seconds, m.comm.seconds, o.overlap);
  m.base_step = step_seconds(o.step_compute_seconds, m.base.seconds, o.overlap);
  m.speedup = speedup(double(n), double(m.base_nodes), m.base_step, m.step);
  m.efficiency = m.speedup * double(m.base_nodes) / double(n);
  m.share = m.step > 0 ? m.comm.seconds * (1 - o.overlap) / m.step : 0;
  return m;
}

// The arithmetic of one row written out.
std::string worked_example(const strategy_group& g, const model_size& ms,
                           const std::vector<message>& msgs, long long n, const row_math& m,
                           const report_options& o) {
  const auto sum = [&](const comm_result& c) {
    std::string t;
    for (std::size_t i = 0; i < msgs.size(); ++i)
      t += fmt::format("{}{:g} x {}", i == 0 ? "" : " + ", msgs[i].per_step,
                       millis(c.per_message[i]));
    return t;
  };
  const std::string ovl = fmt_g(o.overlap);
  if (n == m.base_nodes)  // one node count: the step at that scale, nothing to scale against
    return fmt::format(
        "Worked example ({}, {}, n = {}): comm({}) = {} = {}; step({}) = {} + {} x (1 - {}) = {}; "
        "share communicating = {} x (1 - {}) / {} = {:.0f} %.",
        g.label, ms.name, n, n, sum(m.comm), millis(m.comm.seconds), n,
        secs(o.step_compute_seconds), secs(m.comm.seconds), ovl, secs(m.step), secs(m.comm.seconds),
        ovl, secs(m.step), 100 * m.share);
  return fmt::format(
      "Worked example ({}, {}, n = {}{}): comm({}) = {} = {}; step({}) = {} + {} x (1 - {}) = {}; "
      "comm({}) = {} = {}; step({}) = {} + {} x (1 - {}) = {}; speedup = ({} / {}) x {} / {} = "
      "{:.3f}; efficiency = {:.3f} x {} / {} = {:.0f} %.",
      g.label, ms.name, n, m.comm.extrapolated ? ", extrapolated from the fit" : "", n, sum(m.comm),
      millis(m.comm.seconds), n, secs(o.step_compute_seconds), secs(m.comm.seconds), ovl,
      secs(m.step), m.base_nodes, sum(m.base), millis(m.base.seconds), m.base_nodes,
      secs(o.step_compute_seconds), secs(m.base.seconds), ovl, secs(m.base_step), n, m.base_nodes,
      secs(m.base_step), secs(m.step), m.speedup, m.speedup, m.base_nodes, n, 100 * m.efficiency);
}

// Node counts of the table: every measured one, then 2x, 4x and 8x the largest (extrapolated).
std::vector<std::pair<long long, bool>> row_counts(const std::vector<strategy_group>& groups) {
  std::vector<long long> counts;
  for (const auto& g : groups)
    for (const long long n : g.node_counts)
      if (std::find(counts.begin(), counts.end(), n) == counts.end()) counts.push_back(n);
  std::sort(counts.begin(), counts.end());
  std::vector<std::pair<long long, bool>> out;
  for (const long long n : counts)
    out.push_back({n, false});
  for (const long long k : {2, 4, 8})
    out.push_back({counts.back() * k, true});
  return out;
}

void add_model(section& s, const std::string& run_label, const std::vector<strategy_group>& groups,
               const model_size& ms, const report_options& o, bool& example_done) {
  const auto msgs = messages_per_step(o.training, ms.parameters);
  table t;
  t.caption = fmt::format(
      "{}{}, {}, {}: per step {}; T = {}, overlap = {:g}. Cells: step time (communication per "
      "step, the share of the step spent communicating); speedup (efficiency); rows marked "
      "extrapolated come from the alpha-beta fit; \"largest size's rate\": a message beyond the "
      "largest measured size, timed at that size's rate",
      run_label, ms.name, ms.basis, to_string(o.training.strategy), messages_text(msgs),
      secs(o.step_compute_seconds), o.overlap);
  t.header = {"nodes"};
  for (const auto& g : groups) {
    t.header.push_back(g.label + " step");
    t.header.push_back(g.label + " speedup");
  }
  t.numeric.assign(t.header.size(), true);
  bool any = false;
  std::string missing_text;
  std::optional<std::pair<const strategy_group*, long long>> example;
  for (const auto& [n, extrapolated] : row_counts(groups)) {
    std::vector<std::string> row = {extrapolated ? fmt::format("{} (extrapolated)", n)
                                                 : std::to_string(n)};
    bool row_any = false;
    for (const auto& g : groups) {
      const bool measured =
          std::find(g.node_counts.begin(), g.node_counts.end(), n) != g.node_counts.end();
      if (!measured && !extrapolated) {
        row.insert(row.end(), {"-", "-"});
        continue;
      }
      const auto m = compute(g, msgs, n, o);
      if (!m) {
        const auto c = comm_per_step(g, msgs, n);
        const auto base = comm_per_step(g, msgs, g.node_counts.front());
        const message* miss = c.missing ? c.missing : base.missing;
        const auto& oc = curves_of(g, miss->operation);
        const std::string why = extrapolated && !oc.fit
                                    ? "no fit"
                                    : "not measured (" + measured_range_text(oc, miss->bytes) + ")";
        if (missing_text.empty() && !extrapolated)
          missing_text = fmt::format("{} of {}: {}", operation_text(miss->operation),
                                     size_text(miss->bytes), why);
        row.insert(row.end(), {why, "-"});
        continue;
      }
      row_any = true;
      if (!extrapolated) any = true;
      if (!extrapolated && (n != m->base_nodes || g.node_counts.size() == 1) &&
          (!example || example->first == &g))
        example = {&g, n};
      row.push_back(fmt::format("{} ({}, {:.0f} % of the step{})", secs(m->step),
                                millis(m->comm.seconds), 100 * m->share,
                                m->comm.held ? "; largest size's rate" : ""));
      row.push_back(fmt::format("{} ({:.0f} %)", format_ratio(m->speedup), 100 * m->efficiency));
    }
    if (extrapolated && !row_any) continue;
    t.rows.push_back(std::move(row));
  }
  if (!any) {
    s.blocks.push_back(note{fmt::format(
        "{}{}, {}: {}. The model interpolates only between measured sizes; measure the sizes "
        "this step sends (gpubench run --suite collectives --sizes ...) to project it.",
        run_label, ms.name, ms.basis, missing_text)});
    return;
  }
  s.blocks.push_back(std::move(t));
  if (example_done || !example) return;
  const auto& [g, n] = *example;
  s.blocks.push_back(paragraph{worked_example(*g, ms, msgs, n, *compute(*g, msgs, n, o), o)});
  example_done = true;
}

std::string strategy_text(const report_options& o) {
  const auto& m = o.training;
  const std::string bytes = fmt_g(m.element_bytes);
  switch (m.strategy) {
    case training_strategy::data_parallel:
      return fmt::format(
          "Strategy data-parallel: each step allreduces the gradient, parameters x {} B, in "
          "buckets of {} (--bucket; the last bucket holds the rest). Allreduce size: the "
          "buffer each rank holds.",
          bytes, m.bucket_bytes > 0 ? size_text(m.bucket_bytes) : "the whole gradient");
    case training_strategy::sharded:
      return fmt::format(
          "Strategy sharded (FSDP, ZeRO-3): per unit of {} (--bucket), the parameters are "
          "all-gathered twice per step (forward, and again in backward after resharding) and "
          "the gradient is reduce-scattered once; {} B per element. Sizes are nccl-tests' "
          "totals: the unit's bytes, of which each rank holds 1/n.",
          m.bucket_bytes > 0 ? size_text(m.bucket_bytes) : "the whole model", bytes);
    case training_strategy::moe:
      return fmt::format(
          "Strategy mixture-of-experts: per MoE layer ({} layers), four all-to-alls per step "
          "(dispatch and combine, forward and backward) of tokens x top-k x hidden x {} B = {} "
          "x {} x {} x {} B; size: the total each rank sends. The gradient allreduce of the "
          "dense layers is left out.",
          fmt_g(m.moe.layers), bytes, fmt_g(m.moe.tokens), fmt_g(m.moe.top_k), fmt_g(m.moe.hidden),
          bytes);
  }
  return "";
}

}  // namespace

std::optional<std::string> projection_summary(const run_input& run, const report_options& o) {
  const auto ops = operations_of(o.training.strategy);
  const auto rc = curves_for(run.file, ops);
  const std::string head = "Training projection (a model; section \"Training scaling projection\")";
  const std::string strategy = to_string(o.training.strategy);
  if (rc.measured.empty()) {
    // Asked for (a model or a strategy on the command line): say what is missing. Otherwise a
    // run of no collective (memory, GPU copies) has nothing to project and says nothing.
    if (o.training.parameters <= 0 && o.training.strategy == training_strategy::data_parallel)
      return std::nullopt;
    return fmt::format("{}: the {} strategy needs {}; this run measured no collective.", head,
                       strategy, operations_list(ops));
  }
  if (!rc.missing.empty())
    return fmt::format("{}: the {} strategy needs {}; this run measured only {}.", head, strategy,
                       operations_list(ops), operations_list(rc.measured));
  if (rc.groups.empty())
    return fmt::format(
        "{}: the {} strategy needs {} at a node count they were all measured at; this run has "
        "none.",
        head, strategy, operations_list(ops));
  std::string missing;
  for (const auto& ms : models_of(o.training)) {
    const auto msgs = messages_per_step(o.training, ms.parameters);
    std::string cells;
    for (const auto& g : rc.groups) {
      const long long n = g.node_counts.back();
      const auto m = compute(g, msgs, n, o);
      if (!m) {
        const auto c = comm_per_step(g, msgs, n);
        if (missing.empty() && c.missing)
          missing = fmt::format(
              "the {} of {} ({}) is not measured ({})", operation_text(c.missing->operation),
              size_text(c.missing->bytes), ms.name,
              measured_range_text(curves_of(g, c.missing->operation), c.missing->bytes));
        continue;
      }
      const std::string held = m->comm.held ? ", at the largest measured size's rate" : "";
      if (g.node_counts.size() >= 2) {
        cells += fmt::format("{}{} {:.0f} % at {} nodes ({:.0f} % of the step communicating{})",
                             cells.empty() ? "" : "; ", g.label, 100 * m->efficiency, n,
                             100 * m->share, held);
        continue;
      }
      // One node count: what a step costs at that scale; beyond it only the fit, marked.
      const bool fit = std::all_of(g.ops.begin(), g.ops.end(),
                                   [](const op_curves& oc) { return oc.fit.has_value(); });
      cells += fmt::format(
          "{}{} at {} node{} (measured): communication {} per step{}, step {}, {:.0f} % of it "
          "communicating; {}",
          cells.empty() ? "" : "; ", g.label, n, n == 1 ? "" : "s", millis(m->comm.seconds), held,
          secs(m->step), 100 * m->share,
          fit ? fmt::format("more nodes only from the alpha-beta fit, marked extrapolated in the "
                            "section")
              : fmt::format("nothing fits beyond {} node{}: a second node count would measure "
                            "the scaling",
                            n, n == 1 ? "" : "s"));
    }
    if (cells.empty()) continue;
    const bool scaling =
        std::any_of(rc.groups.begin(), rc.groups.end(),
                    [](const strategy_group& g) { return g.node_counts.size() >= 2; });
    return fmt::format("{}: {}, {}, T = {}, overlap = {}: {}{}.", head, ms.name, strategy,
                       secs(o.step_compute_seconds), fmt_g(o.overlap),
                       scaling ? "scaling efficiency " : "", cells) +
           (scaling ? " Larger node counts are extrapolated there." : "");
  }
  return fmt::format(
      "{}: nothing to project for the {} strategy: {}. Measure the sizes the step sends "
      "(gpubench run --suite collectives --sizes ...), or give --bucket to send it in smaller "
      "messages.",
      head, strategy, missing.empty() ? "its messages lie outside the measured sizes" : missing);
}

std::optional<section> projection_section(const std::vector<run_input>& runs,
                                          const report_options& options) {
  section s;
  s.title = "Training scaling projection (a model)";
  s.level = 1;
  const report_options defaults;
  s.blocks.push_back(paragraph{
      "A model, not a measurement: what the measured collectives mean for a training job that "
      "computes for T seconds per step on every node and communicates as its strategy says. "
      "comm(n) = the sum over the step's messages of count x time(operation, size, n); step(n) "
      "= T + comm(n) x (1 - overlap); speedup(n) = (n / n0) x step(n0) / step(n); efficiency = "
      "speedup(n) x n0 / n, n0 the smallest node count measured (1 in the usual case). "
      "time(operation, size, n) at a measured node count is the time one operation took there "
      "(the time each case records), at the size itself when measured, else interpolated "
      "log-log between the two nearest measured sizes; a size beyond the largest measured one, "
      "up to 4x it, is timed at the largest size's rate and marked so; any other size is shown "
      "as not measured. With one node count measured, the table shows that scale: the "
      "communication per step, the step time and the share of it spent communicating. Rows beyond "
      "the largest measured node count are marked "
      "extrapolated: their times come from the alpha-beta fit of a ring shown below, with its "
      "residuals, never from a measurement. The model leaves out everything but compute and "
      "these collectives: overlap beyond the fraction given, topology-aware and hierarchical "
      "algorithms, compression, data loading, optimizer, stragglers."});
  s.blocks.push_back(paragraph{fmt::format(
      "Inputs: T = {} (gpubench report --step-time; default {}), overlap = {} (--overlap, the "
      "fraction of the communication hidden behind compute, 0 to 1; default {}: no overlap). "
      "{}",
      secs(options.step_compute_seconds), secs(defaults.step_compute_seconds),
      fmt_g(options.overlap), fmt_g(defaults.overlap), strategy_text(options))});
  const auto ops = operations_of(options.training.strategy);
  bool any = false, example_done = false;
  for (const auto& run : runs) {
    const auto rc = curves_for(run.file, ops);
    if (rc.measured.empty()) continue;
    any = true;
    const std::string label = runs.size() > 1 ? run.label + ": " : "";
    if (!rc.missing.empty()) {
      s.blocks.push_back(note{fmt::format(
          "{}the {} strategy needs {}; this run measured only {}. Nothing is substituted: "
          "measure {} (gpubench run --suite collectives) to project this strategy.",
          label, to_string(options.training.strategy), operations_list(ops),
          operations_list(rc.measured), operations_list(rc.missing))});
      continue;
    }
    if (rc.groups.empty()) {
      s.blocks.push_back(note{fmt::format(
          "{}the {} strategy needs {} at two or more common node counts of the same backend "
          "and transport; this run has none.",
          label, to_string(options.training.strategy), operations_list(ops))});
      continue;
    }
    if (std::any_of(rc.groups.begin(), rc.groups.end(),
                    [](const strategy_group& g) { return g.node_counts.front() != 1; }))
      s.blocks.push_back(
          note{"Where one node was not measured, speedup is relative to the smallest node count "
               "measured: speedup(n) = (n / n0) x step(n0) / step(n)."});
    for (const auto& ms : models_of(options.training))
      add_model(s, label, rc.groups, ms, options, example_done);
    for (auto& b : fit_blocks(label, rc.groups, options))
      s.blocks.push_back(std::move(b));
  }
  if (!any) return std::nullopt;
  return s;
}

}  // namespace gpubench::reports::page_one::projection
