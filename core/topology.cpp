#include "core/topology.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

#include "core/errors.hpp"

namespace gpubench::core {

namespace {

// A hostlist that expands past this many names is a typo (node[1-100000000]), not a fabric.
constexpr std::size_t max_names = 1'000'000;

std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

std::uint64_t number(std::string_view digits) {
  if (digits.size() > 18) throw std::invalid_argument("'" + std::string(digits) + "' is too long");
  return std::stoull(std::string(digits));
}

// Splits at commas outside brackets.
std::vector<std::string_view> split_top(std::string_view list) {
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i] == '[') {
      if (++depth > 1) throw std::invalid_argument("'[' inside brackets");
    } else if (list[i] == ']') {
      if (--depth < 0) throw std::invalid_argument("']' without '['");
    } else if (list[i] == ',' && depth == 0) {
      items.push_back(list.substr(start, i - start));
      start = i + 1;
    }
  }
  if (depth != 0) throw std::invalid_argument("'[' without ']'");
  items.push_back(list.substr(start));
  return items;
}

// The values of one bracket group: "01-03,7" -> 01, 02, 03, 7.
std::vector<std::string> expand_group(std::string_view group) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= group.size()) {
    const auto comma = group.find(',', start);
    const auto part = group.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const auto dash = part.find('-');
    const auto lo = part.substr(0, dash);
    const auto hi = dash == std::string_view::npos ? lo : part.substr(dash + 1);
    if (!all_digits(lo) || !all_digits(hi))
      throw std::invalid_argument("'[" + std::string(group) +
                                  "]': expected numbers and ranges such as [01-16,20]");
    const auto from = number(lo), to = number(hi);
    if (to < from) throw std::invalid_argument("range '" + std::string(part) + "' runs backwards");
    if (to - from >= max_names)
      throw std::invalid_argument("range '" + std::string(part) + "' is too large");
    for (auto v = from; v <= to; ++v) {
      std::string s = std::to_string(v);
      if (s.size() < lo.size()) s.insert(0, lo.size() - s.size(), '0');
      out.push_back(std::move(s));
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

void expand_item(std::string_view item, std::vector<std::string>& out) {
  if (item.empty()) throw std::invalid_argument("an empty name");
  std::vector<std::string> names{""};
  std::size_t i = 0;
  while (i < item.size()) {
    const auto open = item.find('[', i);
    const auto text =
        item.substr(i, open == std::string_view::npos ? std::string_view::npos : open - i);
    for (auto& n : names)
      n += text;
    if (open == std::string_view::npos) break;
    const auto close = item.find(']', open);
    const auto values = expand_group(item.substr(open + 1, close - open - 1));
    if (names.size() * values.size() > max_names)
      throw std::invalid_argument("'" + std::string(item) + "' expands to too many names");
    std::vector<std::string> next;
    next.reserve(names.size() * values.size());
    for (const auto& n : names)
      for (const auto& v : values)
        next.push_back(n + v);
    names = std::move(next);
    i = close + 1;
  }
  if (out.size() + names.size() > max_names)
    throw std::invalid_argument("the list expands to too many names");
  out.insert(out.end(), names.begin(), names.end());
}

struct logical_line {
  std::size_t number = 0;  // of its first physical line
  std::string text;
};

// Comments (# to the end) removed, lines ending in '\' joined to the next, blank lines dropped.
std::vector<logical_line> logical_lines(std::string_view text) {
  std::vector<logical_line> out;
  std::istringstream in{std::string(text)};
  std::string raw;
  std::size_t number = 0;
  logical_line pending;
  bool continued = false;
  while (std::getline(in, raw)) {
    ++number;
    if (const auto hash = raw.find('#'); hash != std::string::npos) raw.erase(hash);
    while (!raw.empty() && std::isspace(static_cast<unsigned char>(raw.back())))
      raw.pop_back();
    const bool continues = !raw.empty() && raw.back() == '\\';
    if (continues) raw.pop_back();
    if (!continued) pending = {number, ""};
    pending.text += " " + raw;
    continued = continues;
    if (!continued && pending.text.find_first_not_of(" \t\r") != std::string::npos)
      out.push_back(std::move(pending));
  }
  if (continued && pending.text.find_first_not_of(" \t\r") != std::string::npos)
    out.push_back(std::move(pending));
  return out;
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view list) {
  std::vector<std::string> out;
  for (const auto item : split_top(list))
    expand_item(item, out);
  return out;
}

topology topology::parse(std::string_view text, const std::string& source) {
  topology t;
  std::unordered_map<std::string, std::size_t> by_name;  // switch -> index
  for (const auto& line : logical_lines(text)) {
    const auto fail = [&](const std::string& what) -> void {
      throw input_error(source + " line " + std::to_string(line.number) + ": " + what);
    };
    std::istringstream words(line.text);
    std::string word;
    topology_switch sw;
    sw.line = line.number;
    bool first = true, has_children = false;
    while (words >> word) {
      const auto eq = word.find('=');
      if (eq == std::string::npos || eq == 0)
        fail("'" + word + "': expected KEY=VALUE (SwitchName=, Nodes=, Switches=, LinkSpeed=)");
      const std::string key = lowercase(std::string_view(word).substr(0, eq));
      const std::string value = word.substr(eq + 1);
      if (first && key != "switchname")
        fail("a line starts with SwitchName=NAME, not '" + word + "'");
      first = false;
      if (value.empty()) fail("'" + word + "': no value");
      try {
        if (key == "switchname") {
          if (!sw.name.empty()) fail("SwitchName given twice");
          if (value.find_first_of("[],") != std::string::npos)
            fail("SwitchName=" + value + ": one switch per line, no ranges");
          sw.name = value;
        } else if (key == "nodes") {
          if (!sw.nodes.empty()) fail("Nodes= given twice");
          sw.nodes = expand_hostlist(value);
          has_children = true;
        } else if (key == "switches") {
          if (!sw.switches.empty()) fail("Switches= given twice");
          sw.switches = expand_hostlist(value);
          has_children = true;
        } else if (key != "linkspeed") {
          fail("unknown key '" + word.substr(0, eq) +
               "' (expected SwitchName=, Nodes=, Switches=, LinkSpeed=)");
        }
      } catch (const std::invalid_argument& e) {
        fail("'" + word + "': " + e.what());
      }
    }
    if (!has_children) fail("switch '" + sw.name + "' has neither Nodes= nor Switches=");
    if (const auto seen = by_name.find(sw.name); seen != by_name.end())
      fail("switch '" + sw.name + "' is already defined on line " +
           std::to_string(t.m_switches[seen->second].line));
    for (const auto& node : sw.nodes) {
      const auto [it, fresh] = t.m_leaf.emplace(node, sw.name);
      if (!fresh)
        fail("node '" + node + "' is already under switch '" + it->second +
             "': a node hangs from one leaf");
    }
    by_name.emplace(sw.name, t.m_switches.size());
    t.m_switches.push_back(std::move(sw));
  }
  if (t.m_switches.empty())
    throw input_error(source +
                      ": no switch defined (expected lines such as "
                      "'SwitchName=leaf1 Nodes=node[01-16]')");
  for (const auto& sw : t.m_switches)
    for (const auto& child : sw.switches) {
      if (child == sw.name)
        throw input_error(source + " line " + std::to_string(sw.line) + ": switch '" + sw.name +
                          "' lists itself in Switches=");
      if (!by_name.count(child))
        throw input_error(source + " line " + std::to_string(sw.line) + ": switch '" + sw.name +
                          "' lists '" + child + "' in Switches=, which no SwitchName= defines");
    }
  return t;
}

topology topology::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw input_error("--topology " + path + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw input_error("--topology " + path + ": error while reading");
  return parse(text.str(), path);
}

std::optional<std::string> topology::leaf_of(const std::string& node) const {
  const auto it = m_leaf.find(node);
  if (it == m_leaf.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> topology::leaves_of(const std::vector<std::string>& nodes) const {
  std::vector<std::string> out;
  out.reserve(nodes.size());
  for (const auto& n : nodes)
    out.push_back(leaf_of(n).value_or(""));
  return out;
}

}  // namespace gpubench::core
