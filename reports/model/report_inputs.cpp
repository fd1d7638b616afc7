#include "reports/model/report_inputs.hpp"

#include <algorithm>
#include <map>

#include "core/errors.hpp"
#include "core/parallel_for.hpp"
#include "core/result_json.hpp"
#include "reports/import/importers.hpp"

namespace gpubench::reports::model {

std::vector<run_input> load_runs(const std::vector<std::filesystem::path>& paths,
                                 const std::string& operation) {
  import::import_options options;
  options.operation = operation;
  if (paths.empty()) throw core::usage_error("report: give at least one result file");
  // Each file is read on its own core: parsing JSON is most of a large report's time.
  std::vector<run_input> runs(paths.size());
  core::parallel_for(paths.size(), [&](std::size_t i) {
    runs[i] = {paths[i], import::load_result(paths[i], options), {}};
  });
  check_and_label(runs);
  return runs;
}

std::string imported_from(const core::result_file& file) {
  std::vector<std::string> tools;
  for (const auto& c : file.results) {
    if (!c.imported) continue;
    const std::string t = c.imported->version.empty()
                              ? c.imported->tool
                              : c.imported->tool + " " + c.imported->version;
    if (std::find(tools.begin(), tools.end(), t) == tools.end()) tools.push_back(t);
  }
  std::string out;
  for (const auto& t : tools)
    out += (out.empty() ? "" : ", ") + t;
  return out;
}

void check_and_label(std::vector<run_input>& runs) {
  std::map<std::string, std::string> run_ids;  // run id -> file
  // Benchmark id -> (unit, file): a chart or a ratio across files needs one unit per id.
  std::map<std::string, std::pair<std::string, std::string>> units;
  for (const auto& r : runs) {
    const std::string name = r.path.string();
    if (const auto [it, fresh] = run_ids.emplace(r.file.run.id, name); !fresh)
      throw core::input_error(name + ": the same run as " + it->second + " (run id " +
                              r.file.run.id + "); give each run once");
    for (const auto& c : r.file.results) {
      const auto [it, fresh] = units.emplace(c.benchmark, std::make_pair(c.unit, name));
      if (!fresh && it->second.first != c.unit)
        throw core::input_error(name + ": " + c.benchmark + " is in " + c.unit + " but in " +
                                it->second.first + " in " + it->second.second +
                                "; these files cannot be reported together");
    }
  }
  // A file that names no host (an imported log that does not say) is named by its file.
  const auto host_of = [](const run_input& r) {
    const auto it = r.file.system.find("host");
    return it != r.file.system.end() && it->is_string() ? it->get<std::string>()
                                                        : r.path.filename().string();
  };
  std::map<std::string, int> hosts;
  for (const auto& r : runs)
    ++hosts[host_of(r)];
  for (auto& r : runs) {
    const std::string host = host_of(r);
    const std::string file = r.path.filename().string();
    // Two runs of one host (before/after, TCP/RDMA) are told apart by when they started; two
    // imported logs by their files, as the time of an import is only when it was read.
    if (hosts[host] < 2)
      r.label = host;
    else if (host == file)  // logs of one name in different folders
      r.label = r.path.string();
    else if (!imported_from(r.file).empty() || r.file.run.suite == "import")
      r.label = host + " (" + file + ")";
    else
      r.label = host + " " + r.file.run.started;
  }
}

}  // namespace gpubench::reports::model
