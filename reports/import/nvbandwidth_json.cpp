#include "reports/import/nvbandwidth_json.hpp"

#include <cmath>

#include <fmt/format.h>

#include "reports/import/json_text.hpp"
#include "reports/import/nvbandwidth_cases.hpp"

namespace gpubench::reports::import {

namespace {

using value_t = nlohmann::json::value_t;

std::string text_of(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) return {};
  const auto& v = j.at(key);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  return {};
}

// A cell: "370.9", "N/A", or a number from a writer that writes numbers.
std::optional<double> cell(const nlohmann::json& v, const import_options& o,
                           const std::string& where) {
  if (v.is_number()) {
    const double d = v.get<double>();
    if (d >= 0 && d <= core::plausible_limit) return d;
  } else if (v.is_string()) {
    const auto s = v.get<std::string>();
    if (s == "N/A") return std::nullopt;
    if (const auto d = to_number(s); d && *d >= 0) return d;
  }
  fail(o, 0, fmt::format("{}: a bandwidth of 0 or more, or \"N/A\"", where), v.dump());
}

}  // namespace

core::result_file parse_nvbandwidth_json(const nlohmann::json& j, const import_options& o) {
  const auto& root = member(j, "nvbandwidth", value_t::object, o, "");
  if (root.contains("error") && root.at("error").is_string())
    fail(o, 0, "a run without error; nvbandwidth reported", root.at("error").get<std::string>());
  nvbandwidth_run run;
  run.version = text_of(root, "version");
  run.git = text_of(root, "git_version");
  run.driver = text_of(root, "Driver Version");
  run.cuda_runtime = text_of(root, "CUDA Runtime Version");
  const auto& tests = member(root, "testcases", value_t::array, o, "nvbandwidth");
  for (std::size_t i = 0; i < tests.size(); ++i) {
    const std::string where = fmt::format("nvbandwidth.testcases[{}]", i);
    const auto& t = tests[i];
    nvbandwidth_test test;
    test.name = member(t, "name", value_t::string, o, where).get<std::string>();
    test.status = text_of(t, "status");
    if (test.status.empty() || test.status == "Passed") {
      test.title = member(t, "bandwidth_description", value_t::string, o, where).get<std::string>();
      const auto& matrix = member(t, "bandwidth_matrix", value_t::array, o, where);
      for (std::size_t r = 0; r < matrix.size(); ++r) {
        const std::string row_where = fmt::format("{}.bandwidth_matrix[{}]", where, r);
        if (!matrix[r].is_array()) fail(o, 0, row_where + " as an array");
        if (r > 0 && matrix[r].size() != matrix[0].size())
          fail(o, 0, fmt::format("{} of {} cells, as row 0", row_where, matrix[0].size()));
        std::vector<std::optional<double>> row;
        for (std::size_t c = 0; c < matrix[r].size(); ++c)
          row.push_back(cell(matrix[r][c], o, fmt::format("{}[{}]", row_where, c)));
        test.cells.push_back(std::move(row));
      }
      if (t.contains("sum") && t.at("sum").is_number()) test.sum = t.at("sum").get<double>();
    }
    run.tests.push_back(std::move(test));
  }
  if (run.tests.empty()) fail(o, 0, "nvbandwidth.testcases with at least one testcase");
  return nvbandwidth_result(run, o);
}

}  // namespace gpubench::reports::import
