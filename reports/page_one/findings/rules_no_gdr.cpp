// collective.no_gdr: NCCL said it moved a collective across nodes without GPUDirect RDMA (its
// INFO line's `GDR 0`, kept by the nccl-tests importer as context `gdr: false`): every message
// is staged through host memory, and the NIC's rate is out of reach whatever the fabric. Where
// a collective's busbw is then far below what its port carries, that is the first thing to look
// at, and a reader of the table alone would blame the network.
#include <fmt/format.h>

#include "reports/model/kind_text.hpp"
#include "reports/model/text_format.hpp"
#include "reports/page_one/findings/rule_helpers.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {

using namespace model;

std::vector<finding> no_gdr_rule(const core::result_file& f, const rule_options&) {
  std::vector<finding> out;
  for (const auto& c : f.results) {
    if (!c.kind.is(core::paths::collective) || c.status != core::case_status::ok ||
        c.points.empty() || !c.context.is_object())
      continue;
    const auto gdr = c.context.find("gdr");
    if (gdr == c.context.end() || !gdr->is_boolean() || gdr->get<bool>()) continue;
    if (c.params.value("in_place", false)) continue;  // one finding per operation
    double best = 0;
    std::uint64_t at = 0;
    for (const auto& p : c.points)
      if (p.stats.median > best) {
        best = p.stats.median;
        at = p.bytes;
      }
    const auto device = c.context.find("net_device");
    finding x;
    x.rule = "collective.no_gdr";
    x.level = severity::warning;
    x.subject = operation_title(c.kind.operation);
    x.title =
        "NCCL ran without GPUDirect RDMA (GDR 0): every message is staged through host "
        "memory";
    x.evidence = fmt::format("the log's NCCL INFO lines say GDR 0{}; busbw peaks at {}{}",
                             device != c.context.end() && device->is_string()
                                 ? " on " + device->get<std::string>()
                                 : std::string(),
                             figure(best, "GB/s"), at_size(at));
    x.check =
        "Check that the nvidia-peermem module (or DMA-BUF) is loaded on every node and that "
        "NCCL_NET_GDR_LEVEL does not forbid it; a GPU and NIC under different PCIe root "
        "complexes also turn it off";
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace gpubench::reports::page_one::findings
