#include "reports/import/iperf3.hpp"

#include <cmath>

#include <fmt/format.h>

#include "reports/import/json_text.hpp"

namespace gpubench::reports::import {

namespace {

using value_t = nlohmann::json::value_t;

double number_at(const nlohmann::json& j, const char* key, const import_options& o,
                 const std::string& where) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_number())
    fail(o, 0, fmt::format("{}.{} as a number", where, key));
  const double v = j.at(key).get<double>();
  if (!std::isfinite(v) || v < 0 || v > core::plausible_limit)
    fail(o, 0, fmt::format("{}.{} of 0 or more, within {:g}", where, key, core::plausible_limit));
  return v;
}

std::optional<double> optional_number(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_number()) return std::nullopt;
  const double v = j.at(key).get<double>();
  return std::isfinite(v) && std::fabs(v) <= core::plausible_limit ? std::optional<double>(v)
                                                                   : std::nullopt;
}

}  // namespace

namespace {

// What both directions of a run share, and the one direction a case is made of.
struct iperf3_run {
  core::import_source src;
  std::string transport, peer;
  std::optional<double> streams, target;  // target: -b, bits/s per stream (0: none)
  const nlohmann::json* start = nullptr;
  const nlohmann::json* end = nullptr;
  const nlohmann::json* intervals = nullptr;
};

core::case_result base_case(const iperf3_run& run) {
  core::case_result c = imported_case("iperf3." + run.transport,
                                      core::network_kind(run.transport, {"peer"}), run.src, true);
  if (!run.peer.empty()) c.params["peer"] = run.peer;
  if (run.streams) c.params["streams"] = static_cast<long long>(*run.streams);
  return c;
}

// One direction: `sum_key` names the intervals' sum ("sum", or "sum_bidir_reverse" for the
// reverse half of --bidir), `sent`/`received` the end's totals of that direction.
core::case_result direction_case(const iperf3_run& run, const std::string& direction,
                                 const char* sum_key, const std::string& sent,
                                 const std::string& received, bool receiving,
                                 const import_options& o) {
  core::case_result c = base_case(run);
  c.params["direction"] = direction;
  const auto& end = *run.end;
  // The intervals' sums are iperf3's own per-second figures: the samples of the point. The
  // omitted warm-up intervals (-O) are left out, as iperf3 leaves them out of its totals.
  std::vector<double> values;
  for (std::size_t i = 0; i < run.intervals->size(); ++i) {
    const std::string where = fmt::format("intervals[{}]", i);
    const auto& sum = member((*run.intervals)[i], sum_key, value_t::object, o, where);
    if (sum.contains("omitted") && sum.at("omitted") == true) continue;
    values.push_back(number_at(sum, "bits_per_second", o, where + "." + sum_key) / 8e9);
  }
  std::string total_key = receiving ? received : sent;
  if (!end.contains(total_key)) total_key = end.contains("sum") ? "sum" : total_key;
  const auto& total = member(end, total_key.c_str(), value_t::object, o, "end");
  const double total_rate =
      number_at(total, "bits_per_second", o, fmt::format("end.{}", total_key));
  if (values.empty()) values.push_back(total_rate / 8e9);  // one value: the total alone

  const auto& test = run.start->at("test_start");
  const double block = optional_number(test, "blksize").value_or(0);
  core::point_result p = point_of(static_cast<std::uint64_t>(block), values);
  p.extra["total_gbytes_per_s"] = total_rate / 8e9;
  if (end.contains(sent))
    if (const auto r = optional_number(end.at(sent), "retransmits")) p.extra["retransmits"] = *r;
  if (end.contains(received))
    if (const auto r = optional_number(end.at(received), "bits_per_second"))
      p.extra["received_gbytes_per_s"] = *r / 8e9;
  // UDP: what the receiver saw of the datagrams (iperf3 writes it in "sum", or in the
  // received total of newer versions).
  for (const std::string& key : {received, std::string("sum"), sent}) {
    if (run.transport != "udp" || !end.contains(key) || !end.at(key).contains("jitter_ms"))
      continue;
    const auto& u = end.at(key);
    for (const char* k : {"jitter_ms", "lost_packets", "packets", "lost_percent"})
      if (const auto v = optional_number(u, k)) p.extra[k] = *v;
    break;
  }
  if (end.contains("streams") && end.at("streams").is_array())
    for (const auto& s : end.at("streams")) {
      // The first stream of this direction: the client's own for "send", the reverse's else.
      if (!s.is_object() || !s.contains("sender") || !s.at("sender").is_object()) continue;
      const auto& side = s.at("sender");
      const bool reverse_stream = side.contains("sender") && side.at("sender").is_boolean() &&
                                  !side.at("sender").get<bool>();
      if (receiving != reverse_stream && side.contains("sender")) continue;
      if (const auto rtt = optional_number(s.at("sender"), "mean_rtt"))
        p.extra["mean_rtt_us"] = *rtt;
      break;
    }
  if (end.contains("cpu_utilization_percent")) {
    const auto& cpu = end.at("cpu_utilization_percent");
    if (const auto v = optional_number(cpu, "host_total")) p.extra["cpu_percent_local"] = *v;
    if (const auto v = optional_number(cpu, "remote_total")) p.extra["cpu_percent_remote"] = *v;
  }
  // A run held to a target rate (-b; UDP's default of 1 Mbit/s) that reached it measured the
  // cap, not the path: said, so that no report takes it for the path's capacity.
  if (run.target && *run.target > 0) {
    const double cap = *run.target * run.streams.value_or(1);
    c.context["target_bits_per_second"] = *run.target;
    const bool capped = total_rate >= 0.9 * cap;
    c.context["rate_capped"] = capped;
    if (capped)
      c.context["rate_capped_why"] = fmt::format(
          "held to -b {:g} bit/s x {} stream(s): the figure is the cap, not the path's capacity",
          *run.target, run.streams.value_or(1));
  }
  c.points.push_back(std::move(p));
  return c;
}

}  // namespace

core::result_file parse_iperf3(const nlohmann::json& j, const import_options& o) {
  iperf3_run run;
  run.src = {"iperf3", "", "", o.name, "iperf3"};
  const nlohmann::json empty = nlohmann::json::object();
  const auto& start = j.contains("start") && j.at("start").is_object() ? j.at("start") : empty;
  if (start.contains("version") && start.at("version").is_string())
    run.src.version = start.at("version").get<std::string>();
  if (run.src.version.starts_with("iperf ")) run.src.version.erase(0, 6);  // "iperf 3.9" -> "3.9"
  const auto& test0 = start.contains("test_start") && start.at("test_start").is_object()
                          ? start.at("test_start")
                          : empty;
  run.transport = string_or_empty(test0, "protocol") == "UDP" ? "udp" : "tcp";
  if (start.contains("connecting_to") && start.at("connecting_to").is_object()) {
    const auto& to = start.at("connecting_to");
    if (to.contains("host") && to.at("host").is_string())
      run.peer = to.at("host").get<std::string>();
    if (const auto port = optional_number(to, "port")) run.peer += fmt::format(":{}", *port);
  }
  run.streams = optional_number(test0, "num_streams");
  core::result_file file = imported_file(o);
  if (start.contains("system_info") && start.at("system_info").is_string()) {
    // "Linux HOST 5.4.104+ #1 SMP ... x86_64": the local host and its kernel.
    const auto f = split_fields(start.at("system_info").get_ref<const std::string&>());
    if (f.size() >= 3) {
      file.system["host"] = std::string(f[1]);
      file.system["kernel"] = std::string(f[2]);
    }
  }
  // A run iperf3 could not make (no server, refused): one failed case with iperf3's words.
  if (j.contains("error") && j.at("error").is_string()) {
    core::case_result c = base_case(run);
    c.status = core::case_status::failed;
    c.reason = "iperf3 reported: " + j.at("error").get<std::string>();
    file.results.push_back(std::move(c));
    return file;
  }
  member(j, "start", value_t::object, o, "");
  run.start = &start;
  run.end = &member(j, "end", value_t::object, o, "");
  run.intervals = &member(j, "intervals", value_t::array, o, "");
  const auto& test = member(start, "test_start", value_t::object, o, "start");
  member(test, "protocol", value_t::string, o, "start.test_start");
  const bool reverse = optional_number(test, "reverse").value_or(0) != 0;
  const bool bidir = optional_number(test, "bidir").value_or(0) != 0;
  run.target = optional_number(test, "target_bitrate");
  if (!run.target) run.target = optional_number(start, "target_bitrate");
  if (run.transport == "udp" && !run.target) run.target = 1048576;  // iperf3's UDP default

  // --bidir: the client's sending streams sum in "sum", its receiving ones in
  // "sum_bidir_reverse"; each direction is a case, judged on its own.
  file.results.push_back(direction_case(run, reverse ? "receive" : "send", "sum", "sum_sent",
                                        "sum_received", reverse, o));
  if (bidir) {
    file.results.back().params["bidir"] = true;
    file.results.push_back(direction_case(run, "receive", "sum_bidir_reverse",
                                          "sum_sent_bidir_reverse", "sum_received_bidir_reverse",
                                          true, o));
    file.results.back().params["bidir"] = true;
  }
  for (auto& c : file.results) {
    if (run.end->contains("sender_tcp_congestion") &&
        run.end->at("sender_tcp_congestion").is_string())
      c.context["congestion"] = run.end->at("sender_tcp_congestion");
    if (const auto mss = optional_number(start, "tcp_mss_default")) c.context["mss"] = *mss;
    if (start.contains("timestamp") && start.at("timestamp").is_object())
      c.context["started"] = string_or_empty(start.at("timestamp"), "time");
  }
  return file;
}

}  // namespace gpubench::reports::import
