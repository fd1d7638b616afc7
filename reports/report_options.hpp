// What `gpubench report` lets the reader choose beyond the files: the inputs of the training
// scaling projection (a model, labelled as one in the report).
#pragma once

namespace gpubench::reports {

struct report_options {
  double step_compute_seconds = 0.25;  // T: compute time of one training step on one node
  double overlap = 0.0;                // fraction of the allreduce hidden behind compute, 0..1
};

}  // namespace gpubench::reports
