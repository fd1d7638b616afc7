#include "cluster/verdict.hpp"

#include <cstdio>
#include <map>
#include <string>

#include <fmt/format.h>

#include "cluster/suspects.hpp"

namespace gpubench::cluster {

namespace {

bool any_failed(const core::result_file& file) {
  for (const auto& c : file.results)
    if (c.status == core::case_status::failed) return true;
  if (file.cluster)
    for (const auto& n : file.cluster->nodes)
      for (const auto& c : n.results)
        if (c.status == core::case_status::failed) return true;
  return false;
}

std::string second_words(const suspect& s) {
  switch (s.check) {
    case second_look::confirmed:
      return fmt::format(", again {:.4g} {} (confirmed)", s.again, s.unit);
    case second_look::not_reproduced:
      return fmt::format(", again {:.4g} {} (not reproduced)", s.again, s.unit);
    case second_look::not_taken:
      break;
  }
  return " (not re-measured)";
}

const char* kind_word(suspect_kind k) {
  switch (k) {
    case suspect_kind::node:
      return "node";
    case suspect_kind::link:
      return "link";
    case suspect_kind::uplink:
      return "uplink";
  }
  return "node";
}

// The way that is slow, where one is: "slow to send: ", "slow from n5 to n1: ".
std::string way_words(const suspect& s) {
  if (s.direction.empty()) return "";
  const bool send = s.direction == "send";
  switch (s.kind) {
    case suspect_kind::node:
      return send ? "slow to send: " : "slow to receive: ";
    case suspect_kind::uplink:
      return send ? "slow out of the leaf: " : "slow into the leaf: ";
    case suspect_kind::link:
      return send ? "slow from " + s.node + " to " + s.peer + ": "
                  : "slow from " + s.peer + " to " + s.node + ": ";
  }
  return "";
}

// "n2 - n4": a link's ends in the order of the file's nodes, whichever way it is slow, so a
// link's line reads the same both ways.
std::string names(const suspect& s, const std::map<std::string, std::size_t>& index) {
  if (s.peer.empty()) return s.node;
  const auto x = index.find(s.node), y = index.find(s.peer);
  const bool swap = x != index.end() && y != index.end() && y->second < x->second;
  return swap ? s.peer + " - " + s.node : s.node + " - " + s.peer;
}

void print_line(const char* what, const suspect& s,
                const std::map<std::string, std::size_t>& index) {
  if (s.benchmark.empty()) {  // a stopped node: no figure
    fmt::print("# {} node {}: {}\n", what, s.node, s.evidence);
    return;
  }
  fmt::print("# {} {} {}: {}{} {:.4g} {} against cluster median {:.4g} {}{}: {}\n", what,
             kind_word(s.kind), names(s, index), way_words(s), s.benchmark, s.value, s.unit,
             s.cluster_median, s.unit, second_words(s), s.evidence);
}

}  // namespace

int finish_run(const core::result_file& file, bool fail_on_suspect) {
  const bool failed = any_failed(file);
  const auto verdict = judge(file);
  std::map<std::string, std::size_t> index;
  if (file.cluster)
    for (std::size_t i = 0; i < file.cluster->nodes.size(); ++i)
      index.emplace(file.cluster->nodes[i].name, i);
  const auto& suspects = verdict.named;
  fmt::print("# suspects: {}\n", suspects.empty() ? "none" : std::to_string(suspects.size()));
  for (const auto& s : suspects)
    print_line("suspect", s, index);
  if (!verdict.unconfirmed.empty())
    fmt::print("# unconfirmed: {} (measured again, not reproduced: not named)\n",
               verdict.unconfirmed.size());
  for (const auto& s : verdict.unconfirmed)
    print_line("unconfirmed", s, index);
  if (!verdict.unsteady.empty()) {
    std::string list;
    for (std::size_t i = 0; i < verdict.unsteady.size() && i < 3; ++i)
      list += (i ? "; " : "") + verdict.unsteady[i];
    if (verdict.unsteady.size() > 3)
      list += fmt::format("; and {} more", verdict.unsteady.size() - 3);
    fmt::print("# not judged: {} measurement(s) too unsteady to name anyone: {}\n",
               verdict.unsteady.size(), list);
  }
  std::fflush(stdout);
  if (failed) return 1;
  return fail_on_suspect && !suspects.empty() ? 1 : 0;
}

}  // namespace gpubench::cluster
