#include "reports/import/perftest_json.hpp"

#include <cmath>

#include <fmt/format.h>

#include "reports/import/json_text.hpp"
#include "reports/import/perftest.hpp"

namespace gpubench::reports::import {

namespace {

bool is_number(std::string_view v) {
  return to_number(v).has_value();
}

std::string quoted(std::string_view v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// "RDMA_Write_Post_List_BW_Test", "Send_Bidirectional_BW_Test", "Atomic_FETCH_AND_ADD_Latency_Test"
std::optional<title_info> title_of(const std::string& test) {
  title_info t;
  if (test.ends_with("_BW_Test"))
    t.latency = false;
  else if (test.ends_with("_Latency_Test"))
    t.latency = true;
  else
    return std::nullopt;
  if (test.starts_with("RDMA_Write"))
    t.op = "write";
  else if (test.starts_with("RDMA_Read"))
    t.op = "read";
  else if (test.starts_with("Send"))
    t.op = "send";
  else if (test.starts_with("Atomic"))
    t.op = "atomic";
  else
    return std::nullopt;
  t.post_list = test.find("_Post_List_") != std::string::npos;
  return t;
}

// The documents of the text: one, or several written one after the other.
std::vector<std::string_view> documents(std::string_view text) {
  std::vector<std::string_view> out;
  int depth = 0;
  bool in_string = false;
  std::size_t begin = std::string_view::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '{' && depth++ == 0) begin = i;
    if (c == '}' && depth > 0 && --depth == 0) out.push_back(text.substr(begin, i - begin + 1));
  }
  if (depth > 0 && begin != std::string_view::npos) out.push_back(text.substr(begin));
  return out;
}

std::string text_value(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) return {};
  const auto& v = j.at(key);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return fmt::format("{:g}", v.get<double>());
  return {};
}

std::optional<double> number(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_number()) return std::nullopt;
  const double v = j.at(key).get<double>();
  if (!std::isfinite(v) || v < 0 || v > core::plausible_limit) return std::nullopt;
  return v;
}

}  // namespace

bool looks_like_perftest_json(std::string_view text) {
  const auto t = trim(text);
  if (t.empty() || t.front() != '{') return false;
  const auto head = trim(t.substr(1, 64));
  return starts_with(head, "\"test_info\"") || starts_with(head, "test_info");
}

std::string repair_perftest_json(std::string_view text) {
  std::string out;
  for (const auto& line : split_lines(text)) {
    const auto t = trim(line.text);
    const auto colon = t.find(':');
    if (colon == std::string_view::npos || t.front() == '{' || t.front() == '}') {
      out += std::string(t) + "\n";
      continue;
    }
    auto key = trim(t.substr(0, colon));
    auto value = trim(t.substr(colon + 1));
    const bool comma = value.ends_with(",");
    if (comma) value = trim(value.substr(0, value.size() - 1));
    if (key.size() >= 2 && key.front() == '"' && key.back() == '"')
      key = key.substr(1, key.size() - 2);
    std::string v(value);
    if (!(value.starts_with("{") || value.starts_with("[") ||
          (value.size() >= 2 && value.front() == '"' && value.back() == '"') || is_number(value) ||
          value == "true" || value == "false" || value == "null"))
      v = quoted(value);
    out += quoted(key) + ": " + v + (comma ? ",\n" : "\n");
  }
  // Trailing commas: a comma before a closing brace (or nothing) is dropped.
  std::string clean;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == ',') {
      std::size_t j = i + 1;
      while (j < out.size() &&
             (out[j] == ' ' || out[j] == '\n' || out[j] == '\t' || out[j] == '\r'))
        ++j;
      if (j == out.size() || out[j] == '}' || out[j] == ']') continue;
    }
    clean += out[i];
  }
  return clean;
}

core::result_file parse_perftest_json(std::string_view text, const import_options& o) {
  const std::string repaired = repair_perftest_json(text);
  const auto docs = documents(repaired);
  if (docs.empty())
    fail(o, 0, "a perftest --out_json document ({\"test_info\": ..., \"results\": ...})");
  core::result_file file = imported_file(o);
  for (std::size_t d = 0; d < docs.size(); ++d) {
    import_options each = o;
    if (docs.size() > 1) each.name = fmt::format("{} (report {})", o.name, d + 1);
    const auto j = parse_json_text(docs[d], each);
    const auto& info = member(j, "test_info", nlohmann::json::value_t::object, each, "");
    const auto& results = member(j, "results", nlohmann::json::value_t::object, each, "");
    const std::string test = text_value(info, "test");
    const auto title = title_of(test);
    if (!title)
      fail(each, 0, "test_info.test naming a perftest test ('RDMA_Write_BW_Test', ...)", test);
    perftest_run run;
    run.title = *title;
    run.tool = fmt::format("ib_{}_{}", title->op, title->latency ? "lat" : "bw");
    // The text's names of the settings, so the case reads them as from the text.
    const std::pair<const char*, const char*> names[] = {{"Device", "Device"},
                                                         {"Number_of_qps", "Number of qps"},
                                                         {"Transport_type", "Transport type"},
                                                         {"Connection_type", "Connection type"},
                                                         {"TX_depth", "TX depth"},
                                                         {"Post_List", "Post List"},
                                                         {"Link_type", "Link type"},
                                                         {"GID_index", "GID index"},
                                                         {"Max_inline_data", "Max inline data"},
                                                         {"rdma_cm_QPs", "rdma_cm QPs"},
                                                         {"Data_ex_method", "Data ex. method"}};
    for (const auto& [json_name, text_name] : names)
      if (const auto v = text_value(info, json_name); !v.empty()) run.settings[text_name] = v;
    if (const auto mtu = text_value(info, "Mtu"); !mtu.empty()) run.settings["Mtu"] = mtu;
    const auto size = number(results, "MsgSize");
    if (!size) fail(each, 0, "results.MsgSize as a number");
    const double iterations = number(results, "n_iterations").value_or(0);
    if (title->latency) {
      const auto typical = number(results, "t_typical");
      if (!typical) fail(each, 0, "results.t_typical as a number");
      run.rows[static_cast<std::uint64_t>(*size)].push_back(
          {iterations, number(results, "t_min").value_or(0), number(results, "t_max").value_or(0),
           *typical, number(results, "t_avg").value_or(0), number(results, "t_stdev").value_or(0),
           number(results, "percentile_99").value_or(0),
           number(results, "percentile_99.9").value_or(0)});
    } else {
      const auto average = number(results, "BW_average");
      const auto rate = number(results, "MsgRate");
      if (!average || !rate) fail(each, 0, "results.BW_average and results.MsgRate as numbers");
      // The file does not say its unit (MB/sec, or Gb/sec with --report_gbits): the message
      // rate times the size does, in either.
      const double gbytes = *rate * *size / 1000;  // Mpps x bytes = MB/s; / 1000: GB/s
      if (gbytes > 0 && std::fabs(*average / 8 - gbytes) <= 0.05 * gbytes)
        run.factor = 1.0 / 8;
      else if (gbytes > 0 && std::fabs(*average * 1048576.0 / 1e9 - gbytes) <= 0.05 * gbytes)
        run.factor = 1048576.0 / 1e9;
      else
        fail(each, 0,
             fmt::format("results.BW_average in Gb/sec or MB/sec, as MsgRate x MsgSize ({:g} "
                         "GB/s) says",
                         gbytes),
             fmt::format("{:g}", *average));
      run.rows[static_cast<std::uint64_t>(*size)].push_back(
          {iterations, number(results, "BW_peak").value_or(0), *average, *rate});
    }
    file.results.push_back(perftest_case(run, each));
    file.results.back().imported->file = o.name;
  }
  return file;
}

}  // namespace gpubench::reports::import
