// The end of a cluster run on rank 0: the suspects printed last, each against the cluster
// median, and the process's exit code, both decided from the result file alone.
#pragma once

#include "core/result.hpp"

namespace gpubench::cluster {

// Prints "# suspects: N" and one line per named suspect on stdout ("# suspect node n4: slow to
// send: net.tcp.bandwidth ..."; a link by its ends in the file's order, "# suspect link n1 - n5:
// slow from n5 to n1: ..."; an uplink by its leaf), each with what the second look said of it
// ("again ... (confirmed)", or "(not re-measured)"), then "# unconfirmed: M" and one line per
// candidate that did not reproduce (with both figures). Returns 1 when a case failed (the run's
// or a node's own) or, with `fail_on_suspect`, when a suspect was named; else 0.
int finish_run(const core::result_file& file, bool fail_on_suspect);

}  // namespace gpubench::cluster
