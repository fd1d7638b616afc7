#include "faults.hpp"

#include <stdexcept>

namespace gpubench::tests::standin::nccl {

std::string to_string(fault_kind k) {
  switch (k) {
    case fault_kind::never_join:
      return "never_join";
    case fault_kind::async_error:
      return "async_error";
    case fault_kind::corrupt:
      return "corrupt";
    case fault_kind::hang:
      return "hang";
  }
  return "?";
}

std::optional<fault> parse_fault(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const auto bad = [&text](const std::string& why) {
    return std::invalid_argument("GPUBENCH_STANDIN_NCCL_FAULT '" + text + "': " + why +
                                 " (expected kind:rank[:op], kind never_join, async_error, "
                                 "corrupt or hang)");
  };
  const auto colon = text.find(':');
  if (colon == std::string::npos) throw bad("no rank");
  fault f;
  const std::string kind = text.substr(0, colon);
  bool known = false;
  for (const auto k :
       {fault_kind::never_join, fault_kind::async_error, fault_kind::corrupt, fault_kind::hang})
    if (kind == to_string(k)) {
      f.kind = k;
      known = true;
    }
  if (!known) throw bad("unknown kind '" + kind + "'");
  const std::string rest = text.substr(colon + 1);
  const auto second = rest.find(':');
  try {
    std::size_t used = 0;
    const std::string rank = rest.substr(0, second);
    f.rank = std::stoi(rank, &used);
    if (used != rank.size() || f.rank < 0) throw bad("rank '" + rank + "'");
    if (second != std::string::npos) {
      const std::string op = rest.substr(second + 1);
      f.op = std::stoull(op, &used);
      if (used != op.size() || f.op < 1) throw bad("operation '" + op + "'");
    }
  } catch (const std::invalid_argument&) {
    throw bad("not a number");
  } catch (const std::out_of_range&) {
    throw bad("number out of range");
  }
  return f;
}

}  // namespace gpubench::tests::standin::nccl
