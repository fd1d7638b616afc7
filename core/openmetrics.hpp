// A run's headline figures in the OpenMetrics text format, for node_exporter's textfile
// collector: what `gpubench run --metrics PATH` writes (docs/metrics.md names every metric).
#pragma once

#include <filesystem>
#include <string>

#include "core/result.hpp"

namespace gpubench::core {

// The median of every measured point of every case that ran ok (a cluster run's nodes' cases
// with their node as host), in base units (bytes per second, seconds), labelled benchmark,
// params, size and host; the run's cases by status and the time it finished. Gauges only and no
// timestamps, so Prometheus' own text parser (node_exporter's) reads it as well. Ends "# EOF".
std::string openmetrics_text(const result_file& file);

// Writes openmetrics_text(file) to `path` atomically (temporary file + rename): the collector
// never reads half a file. Throws std::runtime_error naming the path.
void write_openmetrics(const std::filesystem::path& path, const result_file& file);

}  // namespace gpubench::core
