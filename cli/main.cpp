// gpubench: interconnect and scaling benchmarks. Parses the command line and dispatches.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchmarks/register_all.hpp"
#include "cli/command.hpp"
#include "cli/version.hpp"
#include "core/errors.hpp"

namespace {

// `gpubench --suite S ...` means `gpubench run --suite S ...`: the form users know.
std::vector<std::string> with_default_command(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0].rfind("-", 0) == 0 && args[0] != "-h" && args[0] != "--help" &&
      args[0] != "--version")
    args.insert(args.begin(), "run");
  return args;
}

int run(int argc, char** argv) {
  using namespace gpubench;
  core::registry registry;
  benchmarks::register_all(registry);
  const cli::environment env{registry, std::vector<std::string>(argv, argv + argc)};

  CLI::App app{
      "gpubench: interconnect and scaling benchmarks (host memory, PCIe, NVLink, "
      "RDMA against TCP, allreduce from 1 to N nodes)",
      "gpubench"};
  app.set_version_flag("--version", cli::version_text());
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 success; 1 a benchmark failed or compare found a regression; 2 bad usage "
      "or bad input; 130 interrupted (results measured so far are kept).\n"
      "`gpubench --suite S` is short for `gpubench run --suite S`.");
  std::vector<cli::command> commands = {cli::setup_list(app, env), cli::setup_run(app, env),
                                        cli::setup_topo(app, env)};
  commands.push_back(cli::setup_compare(app, env));
  commands.push_back(cli::setup_serve(app, env));
  commands.push_back(cli::setup_report(app, env));
  commands.push_back(cli::setup_import(app, env));
  commands.push_back(cli::setup_store(app, env));
  commands.push_back(cli::setup_history(app, env));

  std::vector<std::string> args = with_default_command(argc, argv);
  std::reverse(args.begin(), args.end());  // CLI11 takes them in reverse order
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  for (auto& c : commands)
    if (c.app->parsed()) return c.run();
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const gpubench::core::usage_error& e) {
    fmt::print(stderr, "gpubench: {}\n", e.what());
    return 2;
  } catch (const gpubench::core::input_error& e) {
    fmt::print(stderr, "gpubench: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpubench: error: {}\n", e.what());
    return 1;
  }
}
