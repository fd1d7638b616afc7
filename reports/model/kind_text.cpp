#include "reports/model/kind_text.hpp"

#include <cctype>

#include "core/params_text.hpp"

namespace gpubench::reports::model {

std::string transport_title(std::string_view transport) {
  std::string out(transport);
  for (auto& ch : out)
    ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return out;
}

std::string operation_title(std::string_view operation) {
  // The collectives' names as people write them; any other operation by its own name.
  if (operation == "allreduce") return "Allreduce";
  if (operation == "allgather") return "All-gather";
  if (operation == "reduce_scatter") return "Reduce-scatter";
  if (operation == "alltoall") return "All-to-all";
  if (operation == "sendrecv") return "Send/recv";
  std::string out(operation);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

int transport_rank(std::string_view transport) {
  return transport == "tcp" ? 0 : transport == "rdma" ? 1 : 2;
}

std::string endpoint_text(const core::case_result& c, std::size_t i) {
  const auto& e = c.kind.endpoints;
  if (i >= e.size() || !c.params.is_object() || !c.params.contains(e[i])) return "";
  return core::param_text(c.params.at(e[i]));
}

}  // namespace gpubench::reports::model
