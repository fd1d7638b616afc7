// CPU cost of TCP against RDMA, like for like. A side that busy-polls spends one core while
// it waits, whatever it moves; one that sleeps spends almost nothing. So TCP's CPU seconds per
// GB are set against RDMA's only when both waited alike: busy-polling TCP (--busy-poll on)
// against polling RDMA, blocking TCP against event-driven RDMA (--rdma-completion event).
#pragma once

#include <string>
#include <vector>

#include "reports/model/document.hpp"
#include "reports/model/series.hpp"

namespace gpubench::reports::views {

// How a network case waited for data: "busy-poll" | "blocking" (TCP), "poll" | "event"
// (RDMA). From its context's completion_mode; results written before it was recorded fall
// back to what those versions did (RDMA always polled; TCP blocked unless params busy_poll).
std::string completion_mode_of(const core::case_result& c);
// "spinning" (busy-poll, poll) or "sleeping" (blocking, event): the modes that compare.
std::string wait_class_of(const std::string& mode);

// The comparison table (mode class, size, TCP case and cost, RDMA case and cost, ratio, what
// CPU was counted: model::like_for_like, the whole machine when both have it) for
// every TCP and RDMA case of one class with a common message size and a CPU cost at it, of
// the same run and, when both name a direction, the same direction; empty rows when nothing
// compares. `notes` gets one line per case without a counterpart.
model::table cpu_cost_table(const std::vector<model::case_ref>& cases,
                            std::vector<std::string>& notes);

// Appends the paragraph, the table and the notes to a network view's section, when the view
// has both TCP and RDMA cases.
void append_cpu_comparison(model::section& s, std::vector<model::case_ref> cases);

}  // namespace gpubench::reports::views
