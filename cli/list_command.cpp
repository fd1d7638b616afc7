// gpubench list [--suite S]: every benchmark, its suites, and whether it can run here.
#include <fmt/format.h>

#include "cli/command.hpp"

namespace gpubench::cli {

command setup_list(CLI::App& app, const environment& env) {
  auto* sub =
      app.add_subcommand("list", "List benchmarks, their suites and whether they can run here");
  auto suite = std::make_shared<std::string>("interconnect");
  sub->add_option("--suite", *suite,
                  "Only this suite (memory, gpu, network, collectives, interconnect)");
  return {sub, [&env, suite] {
            const core::run_context ctx;
            const auto selected = env.registry.select(*suite);
            std::size_t width = 10;
            for (const auto* b : selected)
              width = std::max(width, b->id.size());
            fmt::print("{:<{}}  {:<12}  {}\n", "benchmark", width, "suite",
                       "description / availability");
            for (const auto* b : selected) {
              const auto req =
                  b->requirement ? b->requirement(ctx) : core::requirement_status::ok();
              std::string suites;
              for (const auto& s : b->suites)
                suites += (suites.empty() ? "" : ",") + s;
              fmt::print("{:<{}}  {:<12}  {}\n", b->id, width, suites, b->description);
              fmt::print("{:<{}}  {:<12}  {}\n", "", width, "",
                         req.met ? std::string("available") : "unavailable: " + req.reason);
            }
            return 0;
          }};
}

}  // namespace gpubench::cli
