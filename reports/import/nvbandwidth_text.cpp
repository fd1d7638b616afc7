#include "reports/import/nvbandwidth_text.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "reports/import/nvbandwidth_cases.hpp"

namespace gpubench::reports::import {

namespace {

std::string after(std::string_view line, std::string_view prefix) {
  return std::string(trim(line.substr(prefix.size())));
}

// "NAME (00000000:99:00)": the name and the bus id in parentheses, where printed.
void name_and_bus(std::string_view text, nvbandwidth_device& d) {
  text = trim(text);
  if (text.ends_with(")")) {
    const auto open = text.rfind('(');
    if (open != std::string_view::npos && open > 0) {
      d.bus = std::string(text.substr(open + 1, text.size() - open - 2));
      text = trim(text.substr(0, open));
    }
  }
  d.name = std::string(text);
}

// "Device 0: NVIDIA H100 80GB HBM3" or, multinode, "Process 0 (host): device 0: NAME (bus)".
std::optional<nvbandwidth_device> parse_device_line(std::string_view t) {
  nvbandwidth_device d;
  if (starts_with(t, "Device ")) {
    const auto colon = t.find(':');
    const auto index =
        colon == std::string_view::npos ? std::nullopt : to_count(t.substr(7, colon - 7));
    if (!index || *index > 100000) return std::nullopt;
    d.index = static_cast<int>(*index);
    name_and_bus(t.substr(colon + 1), d);
    return d;
  }
  if (starts_with(t, "Process ")) {
    const auto open = t.find(" (");
    const auto close = t.find("): device ");
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
      return std::nullopt;
    const auto index = to_count(t.substr(8, open - 8));
    if (!index || *index > 100000) return std::nullopt;
    d.index = static_cast<int>(*index);
    d.host = std::string(t.substr(open + 2, close - open - 2));
    const auto rest = t.substr(close + 10);
    const auto colon = rest.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    name_and_bus(rest.substr(colon + 1), d);
    return d;
  }
  return std::nullopt;
}

enum class block_state { title, columns, rows, after_sum };

// A matrix title: "memcpy CE GPU(row) <-> GPU(column) Read1 bandwidth (GB/s)".
bool is_title(std::string_view t) {
  return t.ends_with("(GB/s)") && t.find("(") < t.size() - 6;
}

// The part a title names among a bidirectional testcase's matrices ("Read1" -> "read1"), or "".
std::string part_of_title(std::string_view title) {
  for (const char* part : {"Read1", "Read2", "Write1", "Write2", "Total"})
    if (title.find(std::string(" ") + part + " bandwidth") != std::string_view::npos) {
      std::string p(part);
      p[0] = static_cast<char>(p[0] - 'A' + 'a');
      return p;
    }
  return {};
}

// "Waiving device_to_device_memcpy_write_ce." (v0.2): the testcase's name, or "".
std::string waived_name(std::string_view t) {
  if (!starts_with(t, "Waiving ") || !t.ends_with(".")) return {};
  const auto name = trim(t.substr(8, t.size() - 9));
  return name.find(' ') == std::string_view::npos ? std::string(name) : std::string();
}

}  // namespace

bool looks_like_nvbandwidth_text(std::string_view text) {
  for (const auto& line : split_lines(text.substr(0, 1 << 16))) {
    const auto t = trim(line.text);
    if (starts_with(t, "nvbandwidth Version:")) return true;
    // A testcase begun, waived (v0.2), or a pasted matrix's SUM line naming it.
    if ((starts_with(t, "Running ") || starts_with(t, "Waiving ") || starts_with(t, "SUM ")) &&
        t.find("memcpy") != std::string_view::npos)
      return true;
  }
  return false;
}

core::result_file parse_nvbandwidth_text(std::string_view text, const import_options& o) {
  nvbandwidth_run run;
  std::optional<nvbandwidth_test> open;
  block_state state = block_state::title;
  std::size_t columns = 0, last = 0;
  int runs = 0;  // "nvbandwidth Version:" lines seen: a file may hold several runs
  // A matrix is done: it is one testcase, or one part of a bidirectional testcase's several.
  const auto end_matrix = [&](const text_line& line, std::string_view sum_name, double sum) {
    nvbandwidth_test done = *open;
    const std::string part = part_of_title(done.title);
    std::string base(sum_name);
    if (!part.empty() && base.ends_with("_" + part)) base.resize(base.size() - part.size() - 1);
    if (done.name.empty()) done.name = base;  // a pasted matrix: its SUM line names it
    if (base != done.name)
      fail(o, line.number,
           fmt::format("'SUM {}{} <GB/s>'", done.name, part.empty() ? "" : "_" + part), line.text);
    if (base != sum_name) done.part = part;
    done.sum = sum;
    run.tests.push_back(done);
    open->title.clear();
    open->cells.clear();
    open->name = done.name;
    state = block_state::after_sum;
  };
  for (const auto& line : split_lines(text)) {
    last = line.number;
    const auto t = trim(line.text);
    if (open && state == block_state::after_sum && !t.empty()) {
      // After a SUM line: another matrix of the testcase, its COV line, or the testcase is done.
      const auto f = split_fields(t);
      if (starts_with(t, "COEFFICIENT_OF_VARIATION ") && f.size() == 3) {
        if (const auto v = to_number(f[2]); v && starts_with(f[1], open->name))
          run.tests.back().cv = v;
        continue;
      }
      if (is_title(t)) {
        open->title = std::string(t);
        open->line = line.number;
        state = block_state::columns;
        continue;
      }
      open.reset();
    }
    if (open) {
      if (t.empty()) continue;
      if (starts_with(t, "SUM ")) {
        const auto f = split_fields(t);
        if (f.size() != 3 || !to_number(f[2]))
          fail(o, line.number, fmt::format("'SUM {} <GB/s>'", open->name), line.text);
        if (state != block_state::rows || open->cells.empty())
          fail(o, line.number, "the rows of the matrix before its SUM line", line.text);
        end_matrix(line, f[1], *to_number(f[2]));
        continue;
      }
      if (starts_with(t, "Waived") || starts_with(t, "ERROR") || starts_with(t, "Error") ||
          starts_with(t, "NOT FOUND") || starts_with(t, "Not Found")) {
        const auto colon = t.find(':');
        open->status = std::string(trim(t.substr(0, t.find_first_of(".:"))));
        if (colon != std::string_view::npos) open->message = std::string(trim(t.substr(colon + 1)));
        run.tests.push_back(std::move(*open));
        open.reset();
        continue;
      }
      const auto f = split_fields(t);
      if (state == block_state::title) {
        open->title = std::string(t);
        open->line = line.number;
        state = block_state::columns;
      } else if (state == block_state::columns) {
        columns = f.size();
        for (std::size_t i = 0; i < f.size(); ++i)
          if (to_count(f[i]) != i) fail(o, line.number, "the column numbers 0 1 2 ...", line.text);
        state = block_state::rows;
      } else {
        if (f.size() != columns + 1 || to_count(f[0]) != open->cells.size())
          fail(o, line.number,
               fmt::format("matrix row {} with {} cells (numbers or N/A)", open->cells.size(),
                           columns),
               line.text);
        std::vector<std::optional<double>> row;
        for (std::size_t i = 1; i < f.size(); ++i) {
          const auto v = to_number(f[i]);
          if (!v && f[i] != "N/A") fail(o, line.number, "a number or N/A in every cell", line.text);
          if (v && *v < 0) fail(o, line.number, "bandwidths of 0 or more", line.text);
          row.push_back(v);
        }
        open->cells.push_back(std::move(row));
      }
      continue;
    }
    if (starts_with(t, "nvbandwidth Version:")) {
      if (run.version.empty()) run.version = after(t, "nvbandwidth Version:");
      ++runs;
    } else if (starts_with(t, "Built from Git version:")) {
      if (run.git.empty()) run.git = after(t, "Built from Git version:");
    } else if (starts_with(t, "Driver Version:")) {
      if (run.driver.empty()) run.driver = after(t, "Driver Version:");
    } else if (starts_with(t, "CUDA Runtime Version:")) {
      if (run.cuda_runtime.empty()) run.cuda_runtime = after(t, "CUDA Runtime Version:");
    } else if (auto d = parse_device_line(t)) {
      if (runs <= 1) run.devices.push_back(std::move(*d));
    } else if (const auto waived = waived_name(t); !waived.empty()) {
      nvbandwidth_test w;
      w.name = waived;
      w.status = "Waived";
      w.line = line.number;
      run.tests.push_back(std::move(w));
    } else if (starts_with(t, "Running ") && t.ends_with(".")) {
      open = nvbandwidth_test{};
      open->name = std::string(t.substr(8, t.size() - 9));
      open->line = line.number;
      if (open->name.empty() || open->name.find(' ') != std::string::npos)
        fail(o, line.number, "'Running <testcase>.'", line.text);
      state = block_state::title;
    } else if (is_title(t) && t.find("(row)") != std::string_view::npos) {
      // A pasted matrix without its "Running" line: the SUM line below names the testcase.
      open = nvbandwidth_test{};
      open->title = std::string(t);
      open->line = line.number;
      state = block_state::columns;
    } else if (run.command.empty()) {
      // "$ ./nvbandwidth -t ...": the command from the program's name on (no shell prompt).
      for (const auto field : split_fields(t))
        if (field.ends_with("/nvbandwidth") || field == "nvbandwidth") {
          const auto at = static_cast<std::size_t>(field.data() - t.data());
          run.command = std::string(t.substr(at));
          run.prompt_host = prompt_host(t.substr(0, at));
          break;
        }
    }
  }
  if (open && state != block_state::after_sum)
    fail(o, last,
         fmt::format("the SUM line that ends testcase {} (begun at line {}; the output ends early)",
                     open->name.empty() ? "of the matrix" : open->name, open->line));
  if (run.tests.empty())
    fail(o, 0, "an nvbandwidth testcase ('Running <testcase>.' and its matrix)");
  // Several runs in one file (a testcase met again): each case names its run by the order
  // its testcase came (1, 2, ...); a file of one run has no run parameter.
  std::map<std::string, int> seen;
  int most = 0;
  for (auto& test : run.tests) {
    test.run = ++seen[test.name + "/" + test.part];
    most = std::max(most, test.run);
  }
  if (most == 1)
    for (auto& test : run.tests)
      test.run = 0;
  return nvbandwidth_result(run, o);
}

}  // namespace gpubench::reports::import
