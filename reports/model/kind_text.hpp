// How a report names what a case's kind declares: its transport, its operation, its endpoints.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace gpubench::reports::model {

// "TCP", "RDMA", "UCX": a transport as titles and rows say it.
std::string transport_title(std::string_view transport);
// "Allreduce": an operation as titles and rows say it.
std::string operation_title(std::string_view operation);
// TCP before RDMA before any other transport, as headline rows and view titles list them.
int transport_rank(std::string_view transport);
// The parameter naming endpoint i of the case's kind, as text: the GPU of a host-GPU copy, the
// source GPU of a pair ("" when the kind names no such endpoint or the case lacks it).
std::string endpoint_text(const core::case_result& c, std::size_t i);

}  // namespace gpubench::reports::model
