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
suspect merge(suspect_kind kind, std::string node, std::string peer, std::string direction,
              std::vector<judged> j) {
  std::stable_sort(j.begin(), j.end(), [](const judged& x, const judged& y) {
    const int rx = rank_of(x.second.state), ry = rank_of(y.second.state);
    return rx != ry ? rx < ry : x.f.change() > y.f.change();
  });
  suspect s;
  s.kind = kind;
  s.node = std::move(node);
  s.peer = std::move(peer);
  s.direction = std::move(direction);
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

// The way the findings say is slow: the one way of all their one-way findings (of a named
// suspect, those that were not measured again in vain); "" where none runs one way or both ways
// are slow.
role side_of(const std::vector<judged>& j, bool stands) {
  bool send = false, receive = false;
  for (const auto& x : j) {
    if (stands && x.second.state == second_look::not_reproduced) continue;
    send = send || x.f.side == role::send;
    receive = receive || x.f.side == role::receive;
  }
  return send == receive ? role::both : send ? role::send : role::receive;
}

// What a named node's findings hide of the links at its end: every link (a finding with no way:
// a local point, latency), or only the way it is slow.
struct hidden_ways {
  bool all = false, send = false, receive = false;
  bool any() const { return all || send || receive; }
};

void note_named(const std::vector<judged>& j, hidden_ways& h) {
  for (const auto& x : j) {
    if (x.second.state == second_look::not_reproduced) continue;
    if (x.f.side == role::send)
      h.send = true;
    else if (x.f.side == role::receive)
      h.receive = true;
    else
      h.all = true;
  }
}

// A link finding a-b stands only where both its ends are fine that way: no named node at an end
// hides it in the way the finding ran (every way, for a finding with none).
bool hidden(const finding& f, std::size_t a, std::size_t b, const std::vector<hidden_ways>& h) {
  if (!f.directed || f.side == role::both) return h[a].any() || h[b].any();
  const std::size_t from = f.side == role::send ? a : b, to = from == a ? b : a;
  return h[a].all || h[b].all || h[from].send || h[to].receive;
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
  std::vector<hidden_ways> hides(c.nodes.size());
  for (const auto& [i, findings] : look.nodes) {
    std::vector<judged> j;
    for (const auto& f : findings)
      j.push_back({f, node_again(c, i, f, options)});
    const bool stands = state_of(j) != second_look::not_reproduced;
    if (stands) note_named(j, hides[i]);
    const role side = side_of(j, stands);
    (stands ? named : unconfirmed)
        .emplace_back(strength(j), merge(suspect_kind::node, c.nodes[i].name, {},
                                         direction_word(side), std::move(j)));
  }
  append_by_strength(std::move(named), out.named);
  append_by_strength(std::move(unconfirmed), out.unconfirmed);
  named.clear();
  unconfirmed.clear();
  // Uplinks: judged on a whole leaf's cross-leaf pairs, which the second look does not measure
  // again (their findings keep the first look's verdict).
  for (const auto& [leaf, findings] : look.uplinks) {
    std::vector<judged> j;
    for (const auto& f : findings)
      j.push_back({f, again{}});
    const role side = side_of(j, true);
    named.emplace_back(strength(j),
                       merge(suspect_kind::uplink, leaf, {}, direction_word(side), std::move(j)));
  }
  append_by_strength(std::move(named), out.named);
  named.clear();
  // A link is named only when both its ends are fine with everyone else that way, i.e. neither
  // is a named node in that direction (or in a measurement with none): a slow node's pairs are
  // the node's evidence, whichever measurement named it. A node that did not reproduce does not
  // hide a slow link at its end.
  for (const auto& [ab, findings] : look.links) {
    std::vector<judged> j;
    for (const auto& f : findings) {
      if (hidden(f, ab.first, ab.second, hides)) continue;
      auto second = link_again(c, ab.first, ab.second, f, options);
      // Behind a node that is not named: the pair counts once measured again (one pass
      // called it that node's evidence, not a link).
      if (f.behind && second.state == second_look::not_taken) continue;
      j.push_back({f, std::move(second)});
    }
    if (j.empty()) continue;
    const bool stands = state_of(j) != second_look::not_reproduced;
    // One way slow: the link is named from its sender.
    const role side = side_of(j, stands);
    const bool flip = side == role::receive;
    (stands ? named : unconfirmed)
        .emplace_back(strength(j),
                      merge(suspect_kind::link, c.nodes[flip ? ab.second : ab.first].name,
                            c.nodes[flip ? ab.first : ab.second].name,
                            side == role::both ? "" : "send", std::move(j)));
  }
  append_by_strength(std::move(named), out.named);
  append_by_strength(std::move(unconfirmed), out.unconfirmed);
  return out;
}

std::vector<suspect> find_suspects(const core::result_file& file, const suspect_options& options) {
  return judge(file, options).named;
}

}  // namespace gpubench::cluster
