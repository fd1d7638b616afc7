// The shape of a subcommand: setup_<name>() adds it to the CLI and returns what runs it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/registry.hpp"

namespace gpubench::cli {

struct command {
  CLI::App* app = nullptr;
  std::function<int()> run;  // returns the exit code
};

// What every subcommand may use.
struct environment {
  const core::registry& registry;
  std::vector<std::string> argv;
};

command setup_list(CLI::App& app, const environment& env);
command setup_run(CLI::App& app, const environment& env);
command setup_serve(CLI::App& app, const environment& env);
command setup_topo(CLI::App& app, const environment& env);
command setup_compare(CLI::App& app, const environment& env);
command setup_report(CLI::App& app, const environment& env);
command setup_import(CLI::App& app, const environment& env);
command setup_store(CLI::App& app, const environment& env);
command setup_history(CLI::App& app, const environment& env);

}  // namespace gpubench::cli
