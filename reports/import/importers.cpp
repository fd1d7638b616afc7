#include "reports/import/importers.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "reports/import/iperf3.hpp"
#include "reports/import/json_text.hpp"
#include "reports/import/nccl_tests.hpp"
#include "reports/import/nccl_tests_json.hpp"
#include "reports/import/nvbandwidth_json.hpp"
#include "reports/import/nvbandwidth_text.hpp"
#include "reports/import/perftest.hpp"
#include "reports/import/perftest_json.hpp"

namespace gpubench::reports::import {

namespace {

bool looks_like_json(std::string_view text) {
  const auto t = trim(text);
  return !t.empty() && t.front() == '{';
}

// The one list: text formats, tried in this order (the first whose marks the text carries).
struct text_importer {
  const char* format;
  bool (*looks_like)(std::string_view);
  core::result_file (*parse)(std::string_view, const import_options&);
};
constexpr text_importer text_importers[] = {
    {"nccl-tests", looks_like_nccl_tests, parse_nccl_tests},
    {"nvbandwidth", looks_like_nvbandwidth_text, parse_nvbandwidth_text},
    {"perftest", looks_like_perftest, parse_perftest},
    // perftest's JSON is often invalid JSON (perftest_json.hpp): read as text, then repaired.
    {"perftest-json", looks_like_perftest_json, parse_perftest_json},
};

// JSON formats are told apart by the first key of their document, which each tool writes
// first: nothing is parsed to recognise them (a gpubench result file may be large, and its own
// reader streams it).
struct json_importer {
  const char* format;
  const char* first_key;
  core::result_file (*parse)(const nlohmann::json&, const import_options&);
  const char* mark = nullptr;  // where the first key is common: a text the document holds too
};
constexpr json_importer json_importers[] = {
    {"nvbandwidth-json", nvbandwidth_json_key, parse_nvbandwidth_json},
    {"iperf3", iperf3_json_key, parse_iperf3},
    {"nccl-tests-json", nccl_tests_json_key, parse_nccl_tests_json, nccl_tests_json_mark},
};

// The first key of a JSON object's text ('{ "start": ...' -> "start"); empty if none.
std::string first_key(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.front() != '{') return {};
  text = trim(text.substr(1));
  if (text.empty() || text.front() != '"') return {};
  const auto end = text.find('"', 1);
  if (end == std::string_view::npos || end > 64) return {};
  return std::string(text.substr(1, end - 1));
}

std::string not_recognised(const import_options& o) {
  return fmt::format(
      "{}: expected a gpubench result file or the output of {} (docs/import.md); this file "
      "is none of them",
      o.name, fmt::join(import_formats(), ", "));
}

}  // namespace

std::vector<std::string> import_formats() {
  std::vector<std::string> out;
  for (const auto& i : text_importers)
    out.emplace_back(i.format);
  for (const auto& i : json_importers)
    out.emplace_back(i.format);
  return out;
}

std::string detect_format(std::string_view text) {
  if (looks_like_json(text)) {
    const std::string key = first_key(text);
    for (const auto& i : json_importers)
      if (key == i.first_key && (!i.mark || text.find(i.mark) != std::string_view::npos))
        return i.format;
    for (const auto& i : text_importers)
      if (i.looks_like(text)) return i.format;
    if (text.find("\"gpubench.result/") != std::string_view::npos) return "gpubench";
    return {};
  }
  for (const auto& i : text_importers)
    if (i.looks_like(text)) return i.format;
  return {};
}

core::result_file import_text(std::string_view text, const import_options& o) {
  const std::string format = detect_format(text);
  for (const auto& i : text_importers)
    if (format == i.format) return i.parse(valid_utf8(text), o);
  for (const auto& i : json_importers)
    if (format == i.format) return i.parse(parse_json_text(text, o), o);
  if (format == "gpubench")
    throw core::input_error(o.name + ": a gpubench result file already; nothing to import");
  throw core::input_error(not_recognised(o));
}

core::result_file load_result(const std::filesystem::path& path, const import_options& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return core::read_result_file(path);  // its message names the file and the reason
  // A JSON file whose first key is no other tool's is left to the result reader, which streams
  // it and says what is wrong with it, if anything.
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (looks_like_json(head) || trim(head).empty()) {
    const std::string key = first_key(head);
    if (std::none_of(std::begin(json_importers), std::end(json_importers),
                     [&](const auto& i) { return key == i.first_key; }) &&
        std::none_of(std::begin(text_importers), std::end(text_importers),
                     [&](const auto& i) { return i.looks_like(head); }))
      return core::read_result_file(path);
  }
  std::ostringstream rest;
  rest << in.rdbuf();
  const std::string text = head + rest.str();
  import_options o = options;
  o.name = path.string();
  return import_text(text, o);
}

core::result_file merge_imports(const std::vector<core::result_file>& files,
                                const std::vector<std::string>& names) {
  if (files.empty()) throw core::usage_error("import: give at least one file");
  core::result_file out = files.front();
  out.results.clear();
  out.run.id = "import";
  std::map<std::string, std::string> seen;  // case key -> file
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    for (const auto& [key, value] : f.system.items())
      if (!out.system.contains(key)) out.system[key] = value;
    for (const auto& c : f.results) {
      const std::string key =
          c.benchmark + " " +
          c.params.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      if (const auto [it, fresh] = seen.emplace(key, names[i]); !fresh)
        throw core::input_error(fmt::format(
            "{}: {} {} is in {} too: two runs of one test are two result files (import them "
            "apart, then compare them)",
            names[i], c.benchmark,
            c.params.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), it->second));
      out.results.push_back(c);
    }
    out.run.id += ":" + names[i];
  }
  return out;
}

}  // namespace gpubench::reports::import
