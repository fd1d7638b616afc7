// The verdict of a cluster run (suspects.hpp): the findings of the first look (first_look.hpp),
// each judged again where the file holds a second look (reproduce.hpp), merged into one suspect
// per node or link. docs/cluster.md "The verdict: suspects" and "The second look".
#include "cluster/suspects.hpp"

#include <algorithm>

#include "cluster/first_look.hpp"
#include "cluster/reproduce.hpp"

namespace gpubench::cluster {

namespace {

struct judged {
  finding f;
  again second;
};

// A suspect's state from its findings: confirmed when one reproduced; not taken when one was
// not measured again (the first look stands, as in a file without a second look); not
// reproduced when every one was measured again and none reproduced.
second_look state_of(const std::vector<judged>& j) {
  bool open = false;
  for (const auto& x : j) {
    if (x.second.state == second_look::confirmed) return second_look::confirmed;
    if (x.second.state == second_look::not_taken) open = true;
  }
  return open ? second_look::not_taken : second_look::not_reproduced;
}

int rank_of(second_look s) {
  return s == second_look::confirmed ? 0 : s == second_look::not_taken ? 1 : 2;
}

// One suspect from its findings: the strongest of those that count names the figure (one that
// reproduced before one not measured again before one that did not reproduce), all of them the
// evidence.
suspect merge(suspect_kind kind, std::string node, std::string peer, std::vector<judged> j) {
  std::stable_sort(j.begin(), j.end(), [](const judged& x, const judged& y) {
    const int rx = rank_of(x.second.state), ry = rank_of(y.second.state);
    return rx != ry ? rx < ry : x.f.change() > y.f.change();
  });
  suspect s;
  s.kind = kind;
  s.node = std::move(node);
  s.peer = std::move(peer);
  s.benchmark = j.front().f.benchmark;
  s.value = j.front().f.value;
  s.cluster_median = j.front().f.ref.median;
  s.unit = j.front().f.unit;
  s.check = state_of(j);
  s.again = j.front().second.value;
  s.evidence = s.node + (s.peer.empty() ? "" : " - " + s.peer) + ": ";
  for (std::size_t i = 0; i < j.size(); ++i)
    s.evidence +=
        (i ? "; " : "") + j[i].f.text + (j[i].second.text.empty() ? "" : "; " + j[i].second.text);
  return s;
}

double strength(const std::vector<judged>& j) {
  double best = 0;
  for (const auto& x : j)
    best = std::max(best, x.f.change());
  return best;
}

using ranked = std::vector<std::pair<double, suspect>>;

void append_by_strength(ranked r, std::vector<suspect>& out) {
  std::stable_sort(r.begin(), r.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  for (auto& x : r)
    out.push_back(std::move(x.second));
}

}  // namespace

cluster_verdict judge(const core::result_file& file, const suspect_options& options) {
  cluster_verdict out;
  if (!file.cluster) return out;
  const auto& c = *file.cluster;
  out.second_look = c.confirmation.has_value();

  // Nodes that stopped answering first: they are the first thing to fix.
  for (const auto& node : c.nodes) {
    if (node_answered(node)) continue;
    suspect s;
    s.node = node.name;
    s.evidence = node.name + ": stopped answering: " +
                 (node.reason.empty() ? core::to_string(node.status) : node.reason);
    out.named.push_back(std::move(s));
  }

  const auto look = look_once(c, options);
  out.unsteady = look.unsteady;
  ranked named, unconfirmed;
  std::vector<bool> named_node(c.nodes.size(), false);
  for (const auto& [i, findings] : look.nodes) {
    std::vector<judged> j;
    for (const auto& f : findings)
      j.push_back({f, node_again(c, i, f, options)});
    const bool stands = state_of(j) != second_look::not_reproduced;
    named_node[i] = stands;
    (stands ? named : unconfirmed)
        .emplace_back(strength(j), merge(suspect_kind::node, c.nodes[i].name, {}, std::move(j)));
  }
  append_by_strength(std::move(named), out.named);
  append_by_strength(std::move(unconfirmed), out.unconfirmed);
  named.clear();
  unconfirmed.clear();
  // A link is named only when both its ends are fine with everyone else in every measurement,
  // i.e. neither is a named node: a slow node's pairs are the node's evidence, whichever
  // measurement named it. A node that did not reproduce does not hide a slow link at its end.
  for (const auto& [ab, findings] : look.links) {
    if (named_node[ab.first] || named_node[ab.second]) continue;
    std::vector<judged> j;
    for (const auto& f : findings) {
      auto second = link_again(c, ab.first, ab.second, f, options);
      // Behind a node that is not named: the pair counts once measured again (one pass
      // called it that node's evidence, not a link).
      if (f.behind && second.state == second_look::not_taken) continue;
      j.push_back({f, std::move(second)});
    }
    if (j.empty()) continue;
    const bool stands = state_of(j) != second_look::not_reproduced;
    (stands ? named : unconfirmed)
        .emplace_back(strength(j), merge(suspect_kind::link, c.nodes[ab.first].name,
                                         c.nodes[ab.second].name, std::move(j)));
  }
  append_by_strength(std::move(named), out.named);
  append_by_strength(std::move(unconfirmed), out.unconfirmed);
  return out;
}

std::vector<suspect> find_suspects(const core::result_file& file, const suspect_options& options) {
  return judge(file, options).named;
}

}  // namespace gpubench::cluster
