// The fabric's shape from a file in Slurm's topology.conf syntax (`run --topology FILE`):
// switches, the nodes under each leaf and the switches above them, with Slurm's hostlist
// ranges. Pure parsing, so every rule and error is unit-tested. docs/cluster.md "Which pairs".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpubench::core {

struct topology_switch {
  std::string name;
  std::vector<std::string> nodes;     // Nodes=: a leaf's nodes (hostlist expanded)
  std::vector<std::string> switches;  // Switches=: the switches below this one
  std::size_t line = 0;               // where the file defines it (1-based)
};

class topology {
 public:
  // Parses the text of a topology file; `source` names it in errors. Throws input_error
  // ("topology.conf line 3: ...") for anything it cannot take.
  static topology parse(std::string_view text, const std::string& source);
  // Reads and parses FILE; input_error when it cannot be read.
  static topology read(const std::string& path);

  const std::vector<topology_switch>& switches() const { return m_switches; }
  // The leaf switch of `node` (the switch whose Nodes= lists it), if the file places it.
  std::optional<std::string> leaf_of(const std::string& node) const;
  // Each name's leaf, "" where the file does not place it.
  std::vector<std::string> leaves_of(const std::vector<std::string>& nodes) const;
  std::size_t node_count() const { return m_leaf.size(); }

 private:
  std::vector<topology_switch> m_switches;
  std::unordered_map<std::string, std::string> m_leaf;  // node -> its leaf switch
};

// Slurm's hostlist syntax: "node[01-16],gpu[1,3-4]x,login" -> node01 ... node16, gpu1x, gpu3x,
// gpu4x, login. Ranges keep the width of a zero-padded lower bound; several bracket groups in
// one name expand as a product. Throws std::invalid_argument saying what is wrong.
std::vector<std::string> expand_hostlist(std::string_view list);

}  // namespace gpubench::core
