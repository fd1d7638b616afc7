// gpubench topo [--json]: what this machine is, as every result file records it.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/run_setup.hpp"

namespace gpubench::cli {

namespace {

// Prints a JSON tree as indented "key: value" lines, arrays of objects as numbered blocks.
void print_tree(const nlohmann::json& j, int indent) {
  const std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  for (const auto& [key, value] : j.items()) {
    if (value.is_object()) {
      fmt::print("{}{}:\n", pad, key);
      print_tree(value, indent + 1);
    } else if (value.is_array() && !value.empty() && value.front().is_object()) {
      fmt::print("{}{}: {}\n", pad, key, value.size());
      for (const auto& item : value) {
        fmt::print("{}  -\n", pad);
        print_tree(item, indent + 2);
      }
    } else if (value.is_array() && value.empty()) {
      fmt::print("{}{}: none\n", pad, key);
    } else {
      fmt::print("{}{}: {}\n", pad, key,
                 value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
}

}  // namespace

command setup_topo(CLI::App& app, const environment& env) {
  auto* sub =
      app.add_subcommand("topo", "Describe this machine: CPU, NUMA, NICs, RDMA, GPUs, software");
  auto as_json = std::make_shared<bool>(false);
  sub->add_flag("--json", *as_json, "Print the system block as JSON");
  return {sub, [&env, as_json] {
            const auto system = describe_system(env.registry);
            if (*as_json)
              fmt::print("{}\n", system.dump(2));
            else
              print_tree(system, 0);
            return 0;
          }};
}

}  // namespace gpubench::cli
