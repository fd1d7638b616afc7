#include "cluster/verdict.hpp"

#include <cstdio>
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

}  // namespace

int finish_run(const core::result_file& file, bool fail_on_suspect) {
  const bool failed = any_failed(file);
  const auto suspects = find_suspects(file);
  fmt::print("# suspects: {}\n", suspects.empty() ? "none" : std::to_string(suspects.size()));
  for (const auto& s : suspects)
    fmt::print("# suspect {} {}{}: {} {:.4g} {} against cluster median {:.4g} {}: {}\n",
               s.kind == suspect_kind::node ? "node" : "link", s.node,
               s.peer.empty() ? "" : " - " + s.peer, s.benchmark, s.value, s.unit, s.cluster_median,
               s.unit, s.evidence);
  std::fflush(stdout);
  if (failed) return 1;
  return fail_on_suspect && !suspects.empty() ? 1 : 0;
}

}  // namespace gpubench::cluster
