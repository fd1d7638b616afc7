#include "reports/views/cpu_cost_view.hpp"

#include <cmath>
#include <cstdint>

#include "reports/model/cpu_cost.hpp"
#include "reports/model/text_format.hpp"

namespace gpubench::reports::views {

using namespace model;

namespace {

bool is_tcp(const core::case_result& c) {
  return c.kind.is(core::paths::network) && c.kind.transport == "tcp";
}
bool is_rdma(const core::case_result& c) {
  return c.kind.is(core::paths::network) && c.kind.transport == "rdma";
}

const core::point_result* point_at(const core::case_result& c, std::uint64_t bytes) {
  for (const auto& p : c.points)
    if (p.bytes == bytes) return &p;
  return nullptr;
}

// The direction a case moved data in ("to_peer", "from_peer", "bidir"), or "" when it has none.
std::string direction_of(const core::case_result& c) {
  if (!c.params.is_object()) return "";
  const auto it = c.params.find("direction");
  return it != c.params.end() && it->is_string() ? it->get<std::string>() : "";
}

// A TCP and an RDMA case are set side by side only when one run measured both, in the same
// direction when both name one: a cluster's many peers are not paired each against each.
bool comparable(const case_ref& tcp, const case_ref& rdma) {
  if (tcp.run != rdma.run) return false;
  const std::string a = direction_of(*tcp.result), b = direction_of(*rdma.result);
  return a.empty() || b.empty() || a == b;
}

}  // namespace

std::string completion_mode_of(const core::case_result& c) {
  if (c.context.is_object()) {
    const auto it = c.context.find("completion_mode");
    if (it != c.context.end() && it->is_string()) return it->get<std::string>();
  }
  const bool params = c.params.is_object();
  if (is_rdma(c)) {
    const auto it = params ? c.params.find("completion") : c.params.end();
    return it != c.params.end() && it->is_string() ? it->get<std::string>() : "poll";
  }
  const auto bp = params ? c.params.find("busy_poll") : c.params.end();
  return bp != c.params.end() && bp->is_boolean() && bp->get<bool>() ? "busy-poll" : "blocking";
}

std::string wait_class_of(const std::string& mode) {
  if (mode == "busy-poll" || mode == "poll") return "spinning";
  if (mode == "blocking" || mode == "event") return "sleeping";
  return "unknown";
}

table cpu_cost_table(const std::vector<case_ref>& cases, std::vector<std::string>& notes) {
  table t;
  t.caption = "CPU seconds per GB, TCP against RDMA in like completion modes";
  t.header = {"waiting",   "size",          "TCP case",   "TCP CPU s/GB",
              "RDMA case", "RDMA CPU s/GB", "TCP / RDMA", "CPU counted"};
  t.numeric = {false, true, false, true, false, true, true, false};
  std::vector<bool> matched(cases.size(), false);
  std::vector<std::string> modes;
  for (const auto& c : cases)
    modes.push_back(completion_mode_of(*c.result));
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& tcp = *cases[i].result;
    if (!is_tcp(tcp)) continue;
    const std::string& tcp_mode = modes[i];
    const std::string cls = wait_class_of(tcp_mode);
    if (cls == "unknown") continue;
    for (std::size_t j = 0; j < cases.size(); ++j) {
      const auto& rdma = *cases[j].result;
      if (!is_rdma(rdma) || !comparable(cases[i], cases[j])) continue;
      const std::string& rdma_mode = modes[j];
      if (cls != wait_class_of(rdma_mode)) continue;
      for (const auto& p : tcp.points) {
        const auto* q = point_at(rdma, p.bytes);
        if (!q) continue;
        const auto [tcp_cost, rdma_cost] = like_for_like(p, *q);
        const double a = tcp_cost.seconds_per_gb, b = rdma_cost.seconds_per_gb;
        if (std::isnan(a) || std::isnan(b)) continue;
        matched[i] = matched[j] = true;
        t.rows.push_back({cls + " (TCP " + tcp_mode + ", RDMA " + rdma_mode + ")",
                          format_size(p.bytes), cases[i].label, format_value(a), cases[j].label,
                          format_value(b), b > 0 ? format_ratio(a / b) : "-",
                          to_string(tcp_cost.basis)});
      }
    }
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = *cases[i].result;
    if (matched[i] || !(is_tcp(c) || is_rdma(c))) continue;
    const std::string& mode = modes[i];
    const bool tcp = is_tcp(c);
    const std::string wanted = wait_class_of(mode) == "spinning"
                                   ? (tcp ? "RDMA poll" : "TCP --busy-poll on")
                                   : (tcp ? "RDMA --rdma-completion event" : "TCP blocking");
    notes.push_back(cases[i].label + " (" + mode + "): not compared, no " + wanted +
                    " case with its sizes and a CPU cost");
  }
  return t;
}

void append_cpu_comparison(section& s, std::vector<case_ref> cases) {
  bool tcp = false, rdma = false;
  for (const auto& c : cases) {
    tcp = tcp || is_tcp(*c.result);
    rdma = rdma || is_rdma(*c.result);
  }
  if (!tcp || !rdma) return;
  label_cases(cases);
  std::vector<std::string> notes;
  auto t = cpu_cost_table(cases, notes);
  s.blocks.emplace_back(paragraph{
      "CPU cost compares only between like ways of waiting: a busy-polling side spends a core "
      "whatever it moves, a sleeping one almost nothing. Busy-polling TCP (--busy-poll on) is "
      "set against polling RDMA, blocking TCP against event-driven RDMA (--rdma-completion "
      "event). CPU is the whole machine's at both ends (user, system, irq and softirq of "
      "every core, as netperf's -c/-C count it), so TCP's receive work in softirq on other "
      "cores is counted as RDMA's polling is; results without it (older files or peers) "
      "compare their transport threads' own time, as the last column says. The CPU s/GB "
      "column above is each case's own."});
  if (!t.rows.empty()) s.blocks.emplace_back(std::move(t));
  for (const auto& n : notes)
    s.blocks.emplace_back(note{n});
}

}  // namespace gpubench::reports::views
