#include "benchmarks/collectives/nccl_debug.hpp"

#include <vector>

namespace gpubench::benchmarks::collectives {

namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

std::string label_of(const std::string& network) {
  if (network == "IB") return "rdma";
  if (network == "Socket") return "tcp";
  return "auto";
}

}  // namespace

std::optional<nccl_net_choice> parse_nccl_net(std::string_view log) {
  constexpr std::string_view using_network = "NCCL INFO Using network ";
  constexpr std::string_view net_prefix = "NCCL INFO NET/";
  std::optional<nccl_net_choice> chose;
  std::string ib_devices, ib_line, socket_devices, socket_line;
  for (const std::string_view line : lines_of(log)) {
    if (const auto at = line.find(using_network); at != std::string_view::npos) {
      nccl_net_choice c;
      c.network = std::string(trim(line.substr(at + using_network.size())));
      c.label = label_of(c.network);
      c.evidence = std::string(trim(line.substr(at)));
      chose = std::move(c);
      continue;
    }
    const auto at = line.find(net_prefix);
    if (at == std::string_view::npos) continue;
    const std::string_view rest = line.substr(at + net_prefix.size());
    const auto colon = rest.find(" : Using ");
    if (colon == std::string_view::npos) continue;
    const std::string name(trim(rest.substr(0, colon)));
    const std::string devices(trim(rest.substr(colon + 9)));
    if (name == "IB") {
      ib_devices = devices;
      ib_line = std::string(trim(line.substr(at)));
    } else if (name == "Socket") {
      socket_devices = devices;
      socket_line = std::string(trim(line.substr(at)));
    }
  }
  if (!chose) {
    // Older logs without "Using network": IB is tried first, so its "Using" line decides.
    if (!ib_line.empty())
      chose = nccl_net_choice{"IB", "rdma", "", ib_line};
    else if (!socket_line.empty())
      chose = nccl_net_choice{"Socket", "tcp", "", socket_line};
    else
      return std::nullopt;
  }
  if (chose->network == "IB" && !ib_line.empty()) {
    chose->devices = ib_devices;
    if (chose->evidence != ib_line) chose->evidence += "; " + ib_line;
  } else if (chose->network == "Socket" && !socket_line.empty()) {
    chose->devices = socket_devices;
    if (chose->evidence != socket_line) chose->evidence += "; " + socket_line;
  }
  return chose;
}

std::optional<std::string> nccl_label_disagreement(const std::string& label,
                                                   const nccl_net_choice& chose) {
  if (label != "tcp" && label != "rdma") return std::nullopt;
  if (chose.label == label) return std::nullopt;
  return "the transport label says " + label + " but NCCL chose " + chose.network + " (" +
         (chose.label == "auto" ? "a network plugin" : chose.label) + "): " + chose.evidence;
}

std::vector<std::string> nccl_warnings(std::string_view log, std::size_t most) {
  constexpr std::string_view marker = "NCCL WARN ";
  std::vector<std::string> out;
  for (const auto line : lines_of(log)) {
    const std::size_t at = line.find(marker);
    if (at == std::string_view::npos) continue;
    const auto text = trim(line.substr(at + marker.size()));
    if (!text.empty()) out.emplace_back(text);
  }
  if (out.size() > most) out.erase(out.begin(), out.end() - static_cast<std::ptrdiff_t>(most));
  return out;
}

std::string explain_nccl_failure(const std::string& what, std::string_view log,
                                 const std::string& kept) {
  std::string reason = what;
  const auto said = nccl_warnings(log);
  if (!said.empty()) {
    reason += "; NCCL said: ";
    for (std::size_t i = 0; i < said.size(); ++i)
      reason += (i ? " | " : "") + said[i];
  }
  if (!kept.empty())
    reason += "; NCCL's debug log (INIT, NET and WARN lines) is kept in " + kept;
  else
    reason += "; NCCL's own messages went where NCCL_DEBUG/NCCL_DEBUG_FILE send them";
  return reason;
}

}  // namespace gpubench::benchmarks::collectives
