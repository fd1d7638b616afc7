// The set of benchmarks this build knows, the options they add to `run`, and the probes
// they add to the system description. Built once in main by explicit registration calls.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/benchmark.hpp"
#include "core/run_context.hpp"

namespace gpubench::core {

inline const std::vector<std::string>& known_suites() {
  static const std::vector<std::string> suites = {"memory", "gpu", "network", "collectives",
                                                  "interconnect"};
  return suites;
}

class registry {
 public:
  // Throws std::logic_error on a duplicate id or a definition without a body.
  void add(benchmark_def def);
  // An option shared by families (--streams) is added once; the first check given is kept.
  void add_option(option_spec spec);
  // A probe adds what its family knows to the `system` block (GPUs via CUDA, ...).
  void add_system_probe(std::function<void(nlohmann::json& system)> probe);

  const std::vector<benchmark_def>& benchmarks() const { return m_benchmarks; }
  const std::vector<option_spec>& options() const { return m_options; }
  const std::vector<std::function<void(nlohmann::json&)>>& system_probes() const {
    return m_probes;
  }

  // Applies every option's check to the options of `ctx`; throws usage_error for a bad value
  // whether or not the option's benchmarks will run.
  void check_options(const run_context& ctx) const;

  // Benchmarks of a suite ("interconnect" is all of them) whose id matches `filter`
  // (ECMAScript regex, searched); throws usage_error for an unknown suite or a bad regex.
  std::vector<const benchmark_def*> select(const std::string& suite,
                                           const std::string& filter = "") const;

 private:
  std::vector<benchmark_def> m_benchmarks;
  std::vector<option_spec> m_options;
  std::vector<std::function<void(nlohmann::json&)>> m_probes;
};

}  // namespace gpubench::core
