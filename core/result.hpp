// The result model of gpubench.result/1.N: what a run measured, in memory. See result_json.hpp
// for its JSON form and docs/result.schema.json for the contract.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/kind.hpp"
#include "core/statistics.hpp"

namespace gpubench::core {

// The format a writer writes. Readers accept "gpubench.result/1" and "gpubench.result/1.N" for
// any N: a minor version only adds fields, which older readers ignore.
// 1.1: every case declares its kind.
// 1.2: a cluster section may hold the second look at its suspects ("confirmation").
// 1.3: a case read from another tool's output says so ("imported": true, "source").
// 1.4: a cluster section says how its pairs were chosen ("schedule.method", "pair_list") and,
//      where known, each node's leaf switch ("leaves"); a case may measure a message rate
//      (metric "message_rate", unit "Mpps": perftest's post-list runs).
inline constexpr const char* result_schema_id = "gpubench.result/1.4";
inline constexpr const char* result_schema_major = "gpubench.result/1";

// No measurement of this tool comes near 1e15 in its unit (1e15 us is 31 years, 1e15 GB/s a
// zettabyte per second): readers refuse a larger value as corruption, and importers refuse to
// read one from another tool's output.
inline constexpr double plausible_limit = 1e15;

// Whether a reader of this major version reads `schema`.
bool readable_schema(std::string_view schema);

// The physical limit of the path a case crossed, for "% of line rate".
struct peak_info {
  double value = 0;
  std::string unit;   // same unit as the case's metric
  std::string basis;  // how it was derived: "PCIe 5.0 x16, 63.0 GB/s per direction"
};

struct point_result {
  std::uint64_t bytes = 0;
  summary stats;
  std::vector<double> samples;                      // raw per-sample values, in the metric's unit
  nlohmann::json extra = nlohmann::json::object();  // cpu_seconds_per_gb, algbw, busbw, ...
  std::string stopped_by;                           // noise | timeout | max_samples | interrupted
  std::size_t warmup = 0;                           // warm-up samples, not counted
  double seconds = 0;                               // wall time of the timed samples
};

// Where an imported case came from (`gpubench import`): the tool whose output it was read from,
// as far as the output says. Empty fields: the output did not say.
struct import_source {
  std::string tool;     // "nccl-tests", "nvbandwidth", "perftest", "iperf3"
  std::string version;  // the tool's version as its output prints it
  std::string command;  // the command line, where the output holds one
  std::string file;     // the file it was read from
  std::string test;     // the tool's own name of the test ("all_reduce_perf", "ib_write_bw")
};

enum class case_status { ok, skipped, failed };
std::string to_string(case_status s);

struct case_result {
  std::string benchmark;
  measure_kind kind;  // what it measured (format 1.0 files: derived from the benchmark id)
  nlohmann::json params = nlohmann::json::object();
  case_status status = case_status::ok;
  std::string reason;  // only when not ok
  std::string metric;  // "bandwidth" | "latency"
  std::string unit;    // "GB/s" | "us"
  std::string better;  // "higher" | "lower"
  std::optional<peak_info> peak;
  nlohmann::json context = nlohmann::json::object();  // the path: peer, interface, device, ...
  std::vector<point_result> points;
  // Set on a case read from another tool's output: its points hold what that tool printed,
  // often one value each (no samples of ours, so compare runs no significance test on them).
  std::optional<import_source> imported;
};

struct tool_info {
  std::string name = "gpubench";
  std::string version;
  std::string git;
};

enum class run_status { running, complete, partial, failed };
std::string to_string(run_status s);

struct run_info {
  std::string id;
  std::string started;   // RFC 3339
  std::string finished;  // RFC 3339, empty while running
  std::vector<std::string> argv;
  std::string suite;
  run_status status = run_status::running;
};

// Cluster mode (one launch over two or more nodes); core/cluster.hpp has the pair indexing.
enum class node_status { ok, stalled, failed };
std::string to_string(node_status s);

struct cluster_node {
  std::string name;        // the node's name (its hostname unless overridden)
  std::vector<int> ranks;  // the launcher's ranks on this node
  node_status status = node_status::ok;
  std::string reason;  // why not ok: "no answer within 60 s in pair round 3"
  nlohmann::json system = nlohmann::json::object();  // as the top-level "system" block
  std::vector<case_result> results;  // what the node measured by itself (memory, gpu suites)
};

// One network measurement taken over the planned pairs: a benchmark case (id, params, one size)
// and its per-pair summaries, indexed by the pair's slot (core/cluster.hpp: pair_index() when the
// section lists no pairs, the position in cluster_section::pair_list otherwise). A pair not
// measured has no median (nullopt). A bandwidth case's params say which way it ran: direction
// "to_peer" is b -> a (the measuring end b sends), "from_peer" is a -> b.
struct pair_measurement {
  std::string benchmark;  // net.tcp.latency, net.tcp.bandwidth, net.rdma.latency, ...
  nlohmann::json params = nlohmann::json::object();  // op, streams, direction, ...
  std::uint64_t bytes = 0;
  std::string metric;  // "latency" | "bandwidth"
  std::string unit;    // "us" | "GB/s"
  std::string better;  // "lower" | "higher"
  std::vector<std::optional<double>> median;
  std::vector<std::optional<double>> p99;
  std::vector<std::uint32_t> count;          // samples behind each summary
  std::vector<std::vector<double>> samples;  // raw samples per pair, only with --pair-samples
};

struct pair_failure {
  std::size_t a = 0;
  std::size_t b = 0;
  std::string benchmark;
  std::string reason;
};

// The second look (format 1.2): after the pair rounds rank 0 measured its candidates again,
// and the verdict names only what reproduced (docs/cluster.md "The second look").
struct candidate_ref {
  std::size_t a = 0;             // the node; for a link, its first end
  std::optional<std::size_t> b;  // for a link, its other end (a < b)
};

// One pair measurement's figure for one pair measured again.
struct pair_figure {
  std::string benchmark;
  nlohmann::json params = nlohmann::json::object();
  std::uint64_t bytes = 0;
  double median = 0;
  double p99 = 0;
  std::uint32_t count = 0;
};

struct confirm_pair {
  std::size_t a = 0, b = 0;  // a < b: a served, b measured, as in the pair rounds
  // Measured again for this candidate node (against a partner that is no candidate); none:
  // the candidate link a-b itself.
  std::optional<std::size_t> for_node;
  std::vector<pair_figure> figures;
};

struct confirm_node {
  std::size_t node = 0;
  std::vector<case_result> results;  // the flagged local points run again, one size each
};

struct cluster_confirmation {
  bool complete = false;  // every planned measurement came back
  std::vector<candidate_ref> candidates;
  std::vector<confirm_pair> pairs;
  std::vector<confirm_node> nodes;  // the flagged local points, run again on every node at once
  std::vector<pair_failure> failures;
};

// One pair of a planned sweep: a serves, b measures (a < b), in (sub-)round `round`.
struct planned_pair {
  std::size_t a = 0;
  std::size_t b = 0;
  std::size_t round = 0;
};

// How a cluster run chose its pairs (format 1.4; docs/cluster.md "Which pairs").
struct pair_plan {
  std::string method = "all";  // "all": every pair, the circle method; "matchings": K random ones
  std::size_t matchings = 0;   // K, for "matchings"
  std::uint64_t seed = 0;      // the draw, for "matchings" (the same seed plans the same rounds)
};

struct cluster_section {
  std::vector<cluster_node> nodes;  // node index = position here (pair_index uses it)
  std::size_t rounds = 0;           // rounds of the pair sweep that ran
  std::size_t concurrency = 0;      // pairs measured at once at most (0: no cap)
  pair_plan plan;
  // The pairs the sweep measured, one slot each, in the order planned; empty: every pair, slot
  // pair_index() (method "all", and every file before 1.4). See core/cluster.hpp's slots.
  std::vector<planned_pair> pair_list;
  // Each node's leaf switch, by node index, where the fabric's shape is known (--topology);
  // empty: not known. An entry "" is a node the shape does not place.
  std::vector<std::string> leaves;
  std::vector<pair_measurement> pairs;
  std::vector<pair_failure> failures;
  std::optional<cluster_confirmation> confirmation;  // none: one pass (before 1.2, or cut short)
};

struct result_file {
  std::string schema = result_schema_id;
  tool_info tool;
  run_info run;
  nlohmann::json system = nlohmann::json::object();
  std::vector<case_result> results;
  std::optional<cluster_section> cluster;  // only from a cluster launch
};

}  // namespace gpubench::core
