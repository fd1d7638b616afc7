// cluster_sim: cluster mode's method on simulated clusters (cluster/simulate.hpp), many seeded
// sweeps per configuration, one Markdown table row each (docs/cluster.md "The simulation").
// With --check it exits 1 when a row misses issue 35's bar: at most 10 rounds, >= 99% of nodes
// slowed by >= 10% found, >= 95% of slow links and of slow uplinks found, no healthy node named.
//
//   cluster_sim [--nodes N,...] [--k K] [--noise PCT,...] [--sweeps S] [--leaf-size L]
//               [--seed S] [--check]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cluster/simulate.hpp"

namespace {

struct options {
  std::vector<std::size_t> nodes{1024, 4096};
  std::size_t k = 4;
  std::vector<double> noise{0.02};  // relative
  std::size_t sweeps = 100;
  std::size_t leaf_size = 32;
  std::uint64_t seed = 1;
  bool check = false;
};

double number(const std::string& flag, const std::string& text, double lo, double hi) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !(v >= lo && v <= hi))
    throw std::invalid_argument(flag + ": '" + text + "' is not a number in [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

std::vector<double> numbers(const std::string& flag, const std::string& text, double lo,
                            double hi) {
  std::vector<double> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    out.push_back(number(flag, item, lo, hi));
  if (out.empty()) throw std::invalid_argument(flag + ": no value");
  return out;
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--check") {
      o.check = true;
      continue;
    }
    if (i + 1 >= argc) throw std::invalid_argument(flag + ": needs a value (or unknown option)");
    const std::string v = argv[++i];
    if (flag == "--nodes") {
      o.nodes.clear();
      for (const double x : numbers(flag, v, 4, 1 << 20))
        o.nodes.push_back(static_cast<std::size_t>(x));
    } else if (flag == "--k") {
      o.k = static_cast<std::size_t>(number(flag, v, 1, 64));
    } else if (flag == "--noise") {
      o.noise.clear();
      for (const double x : numbers(flag, v, 0, 50))
        o.noise.push_back(x / 100);
    } else if (flag == "--sweeps") {
      o.sweeps = static_cast<std::size_t>(number(flag, v, 1, 1e6));
    } else if (flag == "--leaf-size") {
      o.leaf_size = static_cast<std::size_t>(number(flag, v, 0, 1 << 20));
    } else if (flag == "--seed") {
      o.seed = static_cast<std::uint64_t>(number(flag, v, 0, 1e15));
    } else {
      throw std::invalid_argument("unknown option " + flag);
    }
  }
  return o;
}

std::string share(std::size_t found, std::size_t of) {
  if (of == 0) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%zu/%zu (%.1f%%)", found, of,
                100.0 * static_cast<double>(found) / static_cast<double>(of));
  return buf;
}

bool at_least(std::size_t found, std::size_t of, double bar) {
  return of == 0 || static_cast<double>(found) >= bar * static_cast<double>(of);
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cluster_sim: %s\n", e.what());
    return 2;
  }
  std::printf(
      "| nodes | K | noise | sweeps | rounds (max / mean) | pair figures per sweep | named per "
      "sweep (nodes / links / uplinks) | nodes slowed >= 10%% found | 5-10%% found | way right | "
      "slow links found | slow uplinks found | flapping named | healthy nodes named | "
      "(one pass) | other wrong (links / uplinks) | s |\n|---|---|---|---|---|---|---|---|---|---|"
      "---|---|---|---|---|---|---|\n");
  bool missed = false;
  for (const std::size_t nodes : o.nodes)
    for (const double noise : o.noise) {
      gpubench::cluster::sim_config config;
      config.nodes = nodes;
      config.k = o.k;
      config.noise = noise;
      config.leaf_size = o.leaf_size;
      if (o.leaf_size == 0) config.faults.slow_uplinks = 0;
      gpubench::cluster::sim_summary sum;
      const auto start = std::chrono::steady_clock::now();
      for (std::size_t s = 0; s < o.sweeps; ++s)
        sum.add(score(gpubench::cluster::simulate(config, o.seed + s)));
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const auto& t = sum.total;
      const double per = static_cast<double>(sum.sweeps);
      std::printf(
          "| %zu | %zu | %.1f%% | %zu | %zu / %.1f | %.0f | %.1f / %.1f / %.1f | %s | %s | %s | %s "
          "| %s | %s | %zu | %zu | %zu / %zu | %.1f |\n",
          nodes, o.k, noise * 100, sum.sweeps, sum.max_rounds, static_cast<double>(t.rounds) / per,
          static_cast<double>(t.figures) / per, static_cast<double>(t.named_nodes) / per,
          static_cast<double>(t.named_links) / per, static_cast<double>(t.named_uplinks) / per,
          share(t.slow_nodes_found, t.slow_nodes).c_str(),
          share(t.mild_nodes_found, t.mild_nodes).c_str(),
          share(t.nodes_way_right, t.slow_nodes_found + t.mild_nodes_found).c_str(),
          share(t.slow_links_found, t.slow_links).c_str(),
          share(t.slow_uplinks_found, t.slow_uplinks).c_str(),
          share(t.flapping_named, t.flapping).c_str(), t.healthy_nodes_named, t.healthy_one_pass,
          t.wrong_links, t.wrong_uplinks, seconds);
      std::fflush(stdout);
      if (!o.check) continue;
      const bool ok = sum.max_rounds <= 10 && at_least(t.slow_nodes_found, t.slow_nodes, 0.99) &&
                      at_least(t.slow_links_found, t.slow_links, 0.95) &&
                      at_least(t.slow_uplinks_found, t.slow_uplinks, 0.95) &&
                      t.healthy_nodes_named == 0;
      if (!ok) {
        std::fprintf(stderr,
                     "cluster_sim: %zu nodes at %.1f%% noise misses the bar (<= 10 rounds, >= 99%% "
                     "of nodes slowed >= 10%%, >= 95%% of links and uplinks, 0 healthy nodes)\n",
                     nodes, noise * 100);
        missed = true;
      }
    }
  return missed ? 1 : 0;
}
