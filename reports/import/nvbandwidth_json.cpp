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
  // "0: NVIDIA H100 80GB HBM3 (00000000:19:00): (host)": index, name, bus id, host.
  if (root.contains("GPU Device list") && root.at("GPU Device list").is_array())
    for (const auto& entry : root.at("GPU Device list")) {
      if (!entry.is_string()) continue;
      const std::string& e = entry.get_ref<const std::string&>();
      const auto colon = e.find(": ");
      const auto index = colon == std::string::npos ? std::nullopt : to_count(e.substr(0, colon));
      if (!index || *index > 100000) continue;
      nvbandwidth_device d;
      d.index = static_cast<int>(*index);
      std::string rest = e.substr(colon + 2);
      if (const auto host = rest.rfind("): ("); host != std::string::npos && rest.ends_with(")")) {
        d.host = rest.substr(host + 4, rest.size() - host - 5);
        rest.resize(host + 1);
      }
      if (const auto open = rest.rfind(" ("); open != std::string::npos && rest.ends_with(")")) {
        d.bus = rest.substr(open + 2, rest.size() - open - 3);
        rest.resize(open);
      }
      d.name = rest;
      run.devices.push_back(std::move(d));
    }
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
    } else if (t.contains("error") && t.at("error").is_string()) {
      test.message = t.at("error").get<std::string>();
    }
    // A bidirectional testcase adds its matrices (each direction, then the total) to one
    // bandwidth_matrix, rows after rows, and keeps the last description and sum: split back.
    const std::size_t columns = test.cells.empty() ? 0 : test.cells.front().size();
    if (columns > 0 && test.cells.size() == 3 * columns &&
        test.name.find("bidirectional") != std::string::npos) {
      const bool read = test.name.find("_read") != std::string::npos;
      const char* parts[] = {read ? "read1" : "write1", read ? "read2" : "write2", "total"};
      for (std::size_t k = 0; k < 3; ++k) {
        nvbandwidth_test part = test;
        part.part = parts[k];
        part.cells.assign(test.cells.begin() + static_cast<std::ptrdiff_t>(k * columns),
                          test.cells.begin() + static_cast<std::ptrdiff_t>((k + 1) * columns));
        if (k < 2) part.sum.reset();  // the sum written is the last matrix's
        run.tests.push_back(std::move(part));
      }
      continue;
    }
    run.tests.push_back(std::move(test));
  }
  if (run.tests.empty()) fail(o, 0, "nvbandwidth.testcases with at least one testcase");
  return nvbandwidth_result(run, o);
}

}  // namespace gpubench::reports::import
