// What `gpubench report` lets the reader choose beyond the files: the inputs of the training
// scaling projection: compute time, overlap, model and strategy (a model, labelled as one in
// the report).
#pragma once

#include <string_view>

#include "reports/model/training_options.hpp"

namespace gpubench::reports::model {

struct report_options {
  double step_compute_seconds = 0.25;  // T: compute time of one training step on one node
  double overlap = 0.0;                // fraction of the communication hidden behind compute, 0..1
  training_model training;             // the model and strategy whose communication is projected
};

// "0.25", "0.25s", "250ms", "250000us" -> seconds; throws core::usage_error unless positive.
double parse_step_time(std::string_view text);
// "0.3" or "30%" -> 0.3; throws core::usage_error outside 0..1.
double parse_overlap(std::string_view text);

}  // namespace gpubench::reports::model
