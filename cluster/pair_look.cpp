// One pass over a pair group's figures: O(figures) apart from the selection inside each median.
#include "cluster/pair_look.hpp"

#include <unordered_map>

namespace gpubench::cluster {

namespace {

// A node's figures in one role (where it sends, where it receives, or all of them), their median
// against the other nodes' medians, and whether it is slow that way.
struct role_view {
  role side = role::both;
  std::vector<std::vector<double>> figures;  // by node
  std::vector<std::optional<double>> score;  // each node's median
  reference score_ref;                       // the nodes' medians
  std::vector<bool> candidate;               // its median an outlier among the nodes'
  std::vector<std::size_t> short_of;         // its figures short of the pair median
  std::vector<bool> slow;                    // named that way by its pairs
};

role_view view_of(const pair_group& g, role r, std::size_t n, double floor,
                  const suspect_options& options) {
  role_view v;
  v.side = r;
  v.figures.resize(n);
  for (const auto& e : g.edges) {
    if (r != role::receive) v.figures[e.from].push_back(e.value);
    if (r != role::send) v.figures[e.to].push_back(e.value);
  }
  v.score.resize(n);
  std::vector<double> scores;
  for (std::size_t i = 0; i < n; ++i)
    if (!v.figures[i].empty()) {
      v.score[i] = median_of(v.figures[i]);
      scores.push_back(*v.score[i]);
    }
  v.score_ref = make_reference(scores, g.higher_is_better);
  v.candidate.assign(n, false);
  for (std::size_t i = 0; i < n; ++i)
    v.candidate[i] = v.score[i] && v.score_ref.is_outlier(*v.score[i], options.deviation, floor);
  return v;
}

std::string way_word(role r) {
  return r == role::send ? " sending" : r == role::receive ? " receiving" : "";
}

}  // namespace

void pair_findings(const core::cluster_section& c, const pair_group& g,
                   const suspect_options& options, first_look& out) {
  const std::size_t n = c.nodes.size();
  if (g.edges.empty()) return;
  const double floor = node_floor(options, g.higher_is_better);
  std::vector<role_view> views;
  for (const role r : g.roles())
    views.push_back(view_of(g, r, n, floor, options));
  // The views a figure's sender and receiver are judged in.
  const role_view& sender = views.front();
  const role_view& receiver = views.back();

  // The pair reference leaves out the figures of candidates (in the way they are candidates),
  // so a slow node's slow pairs do not widen the spread.
  std::vector<double> clean, all;
  for (const auto& e : g.edges) {
    all.push_back(e.value);
    if (!sender.candidate[e.from] && !receiver.candidate[e.to]) clean.push_back(e.value);
  }
  const reference ref = make_reference(clean.empty() ? all : clean, g.higher_is_better);

  // A node is slow that way when its median is an outlier among the nodes' medians and more
  // than pair_share of its figures fall short of the pair median by the node floor.
  for (auto& v : views) {
    v.short_of.assign(n, 0);
    v.slow.assign(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      for (const double x : v.figures[i])
        if (ref.falls_short(x, floor)) ++v.short_of[i];
      const std::size_t measured = v.figures[i].size();
      if (!v.candidate[i] ||
          static_cast<double>(v.short_of[i]) <= options.pair_share * static_cast<double>(measured))
        continue;
      v.slow[i] = true;
      auto f = make_finding(g.benchmark, g.params, g.bytes, *v.score[i], ref, g.unit);
      f.side = v.side;
      f.directed = g.directed;
      f.text = role_prefix(v.side) + g.label + ": median " +
               against(*v.score[i], ref.median, g.unit, way_word(v.side)) + "; " +
               std::to_string(v.short_of[i]) + " of " + std::to_string(measured) + " pairs slow";
      out.nodes[i].push_back(std::move(f));
    }
  }

  // Single slow pairs. A figure counts for the moment rule only when neither end is slow that
  // way; a slow pair in a (sub-)round where most of the others were slow too is a moment (a busy
  // switch, a noisy start), not a link.
  auto counts = [&](const edge& e) { return !sender.slow[e.from] && !receiver.slow[e.to]; };
  std::unordered_map<std::uint64_t, std::pair<std::size_t, std::size_t>> rounds;  // (all, slow)
  auto round_key = [](const edge& e) {
    return (static_cast<std::uint64_t>(e.measurement) << 32) | e.round;
  };
  for (const auto& e : g.edges) {
    if (!counts(e)) continue;
    auto& r = rounds[round_key(e)];
    ++r.first;
    if (ref.is_outlier(e.value, options)) ++r.second;
  }
  // A slow pair of a node slow by its pairs is that node's evidence; where some of the node's
  // figures that way were not short, it is kept as a link finding "behind" the node, which
  // stands only once the node did not reproduce and the pair, measured again, did
  // (suspects.cpp): a slow link and two noisy pairs make 3 of 5. A node slow with every partner
  // hides no link.
  auto hides_links = [&](const role_view& v, std::size_t x) {
    return v.slow[x] && v.short_of[x] < v.figures[x].size();
  };
  for (const auto& e : g.edges) {
    const bool from_slow = sender.slow[e.from], to_slow = receiver.slow[e.to];
    if ((from_slow && to_slow) || (from_slow && !hides_links(sender, e.from)) ||
        (to_slow && !hides_links(receiver, e.to)) || !ref.is_outlier(e.value, options))
      continue;
    std::size_t others = 0, slow_others = 0;  // the round's other counted figures
    if (const auto it = rounds.find(round_key(e)); it != rounds.end()) {
      others = it->second.first - (counts(e) ? 1 : 0);
      slow_others = it->second.second - (counts(e) ? 1 : 0);
    }
    if (others > 0 && 2 * slow_others > others) continue;
    const std::size_t a = std::min(e.from, e.to), b = std::max(e.from, e.to);
    auto f = make_finding(g.benchmark, g.params, g.bytes, e.value, ref, g.unit);
    f.directed = g.directed;
    f.side = !g.directed ? role::both : e.from == a ? role::send : role::receive;
    f.text = g.label + ": ";
    if (g.directed) f.text += c.nodes[e.from].name + " sending to " + c.nodes[e.to].name + ": ";
    f.text += against(e.value, ref.median, g.unit);
    if (from_slow || to_slow) {
      f.behind = from_slow ? e.from : e.to;
      f.text += "; one of " + c.nodes[*f.behind].name + "'s slow pairs";
    } else {
      f.text += g.directed ? "; both ends fine with their other pairs that way"
                           : "; both ends fine with their other pairs";
    }
    out.links[{a, b}].push_back(std::move(f));
  }
}

}  // namespace gpubench::cluster
