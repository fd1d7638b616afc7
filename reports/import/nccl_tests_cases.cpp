#include "reports/import/nccl_tests_log.hpp"

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "reports/import/nccl_tests.hpp"
#include "reports/import/nccl_tests_infer.hpp"

namespace gpubench::reports::import {

namespace {

// gpubench's name of an operation where it measures the same one (kind.hpp, collectives).
std::string kind_operation(const std::string& op) {
  if (op == "all_reduce") return "allreduce";
  if (op == "all_gather") return "allgather";
  return op;
}

// The bus-bandwidth factor fixes the rank count of a log without device lines: allreduce
// 2(n-1)/n, the (n-1)/n operations likewise; a factor of 1 says nothing.
std::optional<int> ranks_from_factor(const std::string& op, double algbw, double busbw) {
  if (!(algbw > 0) || !(busbw > 0)) return std::nullopt;
  const double f = busbw / algbw;
  double n = 0;
  if (op == "all_reduce" && f > 1.01 && f < 2)
    n = 2 / (2 - f);
  else if ((op == "all_gather" || op == "reduce_scatter" || op == "alltoall") && f < 0.99)
    n = 1 / (1 - f);
  else
    return std::nullopt;
  const double r = std::round(n);
  if (r < 2 || r > 100000 || std::fabs(n - r) > 0.05 * r) return std::nullopt;
  return static_cast<int>(r);
}

}  // namespace

core::result_file nccl_log_result(nccl_log log, const import_options& o) {
  std::string op = log.op;
  std::string op_from = op.empty() ? "" : "named by the log";
  if (op.empty() && !o.operation.empty()) {
    op = nccl_tests_operation(o.operation);
    if (op.empty()) fail(o, 0, "--op naming an nccl-tests operation", o.operation);
    op_from = "given with --op";
  }
  if (op.empty()) {
    op = nccl_tests_operation(std::filesystem::path(o.name).stem().string());
    if (!op.empty()) op_from = "named by the file name";
  }
  if (op.empty()) {
    // The table says it where only one operation fits (nccl_tests_infer.hpp).
    const auto& big = log.rows.back();
    nccl_row_shape shape_of{big.bytes,
                            big.count,
                            big.type,
                            big.redop,
                            big.root,
                            big.groups[0].algbw,
                            big.groups[0].busbw,
                            big.groups[0].wrong.has_value(),
                            big.groups.size() > 1 && big.groups[1].wrong.has_value(),
                            big.groups.size() > 1};
    std::optional<int> ranks;
    if (!log.devices.empty()) ranks = static_cast<int>(log.devices.size());
    const auto inferred = infer_nccl_operation(shape_of, ranks);
    if (inferred.operation.empty())
      fail(o, 0,
           fmt::format("a log naming its operation ('# Collective test starting' or the *_perf "
                       "command line), or a table that fits one operation; this one names none "
                       "and is ambiguous: {}; give it with --op (all_reduce, all_gather, "
                       "reduce_scatter, alltoall, broadcast, reduce, sendrecv) to import or report",
                       inferred.from));
    op = inferred.operation;
    op_from = inferred.from;
  }
  if (log.src.test.empty()) log.src.test = op + "_perf";

  std::set<std::string> hosts;
  for (const auto& d : log.devices)
    hosts.insert(d.host);
  nlohmann::json params = {{"backend", "nccl"}};
  nlohmann::json context = nlohmann::json::object();
  if (!log.devices.empty()) {
    params["nodes"] = static_cast<int>(hosts.size());
    params["ranks"] = static_cast<int>(log.devices.size());
  } else if (const auto n = ranks_from_factor(op, log.rows.back().groups[0].algbw,
                                              log.rows.back().groups[0].busbw)) {
    params["ranks"] = *n;
    context["ranks_from"] = "busbw / algbw of the largest size (the log has no device lines)";
  }
  if (!log.rows.front().type.empty()) params["dtype"] = log.rows.front().type;
  if (log.avg_busbw) context["avg_busbw_reported"] = *log.avg_busbw;
  context["operation_from"] = op_from;
  for (const auto& [key, value] : log.context.items())
    context[key] = value;
  if (hosts.size() > 1) context["hosts"] = hosts;

  core::result_file file = imported_file(o);
  for (std::size_t g = 0; g < log.groups; ++g) {
    core::case_result c =
        imported_case("nccl_tests." + log.src.test,
                      core::collective_kind(kind_operation(op), {"nodes"}), log.src, true);
    c.params = params;
    c.params["in_place"] = g == 1;
    c.context = context;
    std::map<std::uint64_t, std::vector<const nccl_size_row*>> by_size;
    std::vector<std::uint64_t> failed_sizes;
    for (const auto& r : log.rows)
      if (r.bytes > 0) by_size[r.bytes].push_back(&r);  // size 0 moves nothing: no bandwidth
    for (const auto& [bytes, same] : by_size) {
      std::vector<double> values;
      std::uint64_t wrong = 0;
      bool checked = true;
      for (const auto* r : same) {
        values.push_back(r->groups[g].busbw);
        if (r->groups[g].wrong)
          wrong += *r->groups[g].wrong;
        else
          checked = false;
      }
      core::point_result p = point_of(bytes, values);
      const auto& first = same.front()->groups[g];
      p.extra = {{"algbw", first.algbw},
                 {"busbw", first.busbw},
                 {"time_us", first.time_us},
                 {"elements", same.front()->count}};
      for (const auto& [key, value] : first.extra.items())
        p.extra[key] = value;
      if (checked) p.extra["wrong"] = wrong;
      // nccl-tests' data check found wrong elements: the figure is of a broken operation.
      if (wrong > 0) {
        p.extra["failed"] = true;
        failed_sizes.push_back(bytes);
      }
      c.points.push_back(std::move(p));
    }
    if (c.points.empty()) fail(o, log.last_line, "a row of a size above 0 bytes");
    if (!failed_sizes.empty()) {
      c.status = core::case_status::failed;
      c.reason = fmt::format(
          "nccl-tests' data check counted wrong elements (#wrong > 0) at {} of {} sizes ({} "
          "bytes{}): a collective that corrupts data failed, whatever its speed",
          failed_sizes.size(), c.points.size(), failed_sizes.front(),
          failed_sizes.size() > 1 ? ", ..." : "");
    }
    file.results.push_back(std::move(c));
  }
  if (!log.devices.empty()) {
    nlohmann::json gpus = nlohmann::json::array();
    const std::string first = log.devices.front().host;
    for (const auto& d : log.devices)
      if (d.host == first)
        gpus.push_back({{"index", d.device}, {"name", d.name}, {"pci_bus_id", d.bus}});
    file.system["host"] = first;
    file.system["gpus"] = gpus;
  }
  if (!log.nccl.empty()) file.system["software"] = {{"nccl", log.nccl}};
  return file;
}

}  // namespace gpubench::reports::import
