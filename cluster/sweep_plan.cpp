#include "cluster/sweep_plan.hpp"

#include <charconv>
#include <random>

#include "core/errors.hpp"

namespace gpubench::cluster {

pairs_choice parse_pairs(std::string_view text) {
  pairs_choice c;
  if (text == "all") {
    c.method = pairs_method::all;
    return c;
  }
  const std::string_view name = "matchings";
  if (text.substr(0, name.size()) != name ||
      (text.size() > name.size() && text[name.size()] != ':'))
    throw core::usage_error("--pairs '" + std::string(text) +
                            "': expected all, matchings or matchings:K (K random partners per "
                            "node, e.g. matchings:4)");
  c.method = pairs_method::matchings;
  if (text.size() == name.size()) return c;
  const auto k = text.substr(name.size() + 1);
  std::size_t value = 0;
  const auto [end, err] = std::from_chars(k.data(), k.data() + k.size(), value);
  if (k.empty() || err != std::errc() || end != k.data() + k.size())
    throw core::usage_error("--pairs '" + std::string(text) + "': K '" + std::string(k) +
                            "' is not a whole number");
  if (value < 2 || value > max_matchings)
    throw core::usage_error("--pairs '" + std::string(text) + "': K must be 2 to " +
                            std::to_string(max_matchings) +
                            " (with one partner a slow pair cannot say which end is slow)");
  c.k = value;
  return c;
}

std::size_t all_pairs_rounds(std::size_t nodes) {
  if (nodes < 2) return 0;
  return nodes % 2 == 0 ? nodes - 1 : nodes;
}

bool all_pairs_by_default(std::size_t nodes, std::size_t k) {
  return all_pairs_rounds(nodes) <= k + localisation_steps;
}

sweep plan_sweep(std::size_t nodes, const pairs_choice& choice, std::size_t concurrency,
                 const std::vector<std::string>& leaves, std::uint64_t fresh_seed) {
  const bool matchings =
      choice.method == pairs_method::matchings ||
      (choice.method == pairs_method::automatic && !all_pairs_by_default(nodes, choice.k));
  sweep s;
  std::vector<core::pair_round> rounds;
  if (matchings) {
    s.plan.method = "matchings";
    s.plan.matchings = choice.k;
    s.plan.seed = choice.seed.value_or(fresh_seed);
    rounds = core::random_matchings(nodes, choice.k, s.plan.seed, leaves);
  } else {
    rounds = core::round_robin(nodes);
  }
  s.rounds = rounds.size();
  for (std::size_t r = 0; r < rounds.size(); ++r)
    for (auto& step : core::split_rounds({rounds[r]}, concurrency)) {
      if (matchings)
        for (const auto& p : step)
          s.pair_list.push_back({p.a, p.b, s.steps.size()});
      s.steps.push_back(std::move(step));
      s.round_of_step.push_back(r);
    }
  return s;
}

std::uint64_t draw_pair_seed() {
  // 53 bits: every JSON reader keeps the recorded seed exact (a double's mantissa).
  std::random_device source;
  const std::uint64_t high = source(), low = source();
  return ((high << 32) | low) & ((std::uint64_t{1} << 53) - 1);
}

}  // namespace gpubench::cluster
