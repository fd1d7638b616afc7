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

core::result_file parse_iperf3(const nlohmann::json& j, const import_options& o) {
  if (j.contains("error") && j.at("error").is_string())
    fail(o, 0, "a finished iperf3 run; iperf3 reported", j.at("error").get<std::string>());
  const auto& start = member(j, "start", value_t::object, o, "");
  const auto& end = member(j, "end", value_t::object, o, "");
  const auto& intervals = member(j, "intervals", value_t::array, o, "");
  const auto& test = member(start, "test_start", value_t::object, o, "start");
  const std::string protocol =
      member(test, "protocol", value_t::string, o, "start.test_start").get<std::string>();
  const bool reverse = optional_number(test, "reverse").value_or(0) != 0;

  core::import_source src{"iperf3", "", "", o.name, "iperf3"};
  if (start.contains("version") && start.at("version").is_string())
    src.version = start.at("version").get<std::string>();
  if (src.version.starts_with("iperf ")) src.version.erase(0, 6);  // "iperf 3.9" -> "3.9"
  std::string transport = protocol == "UDP" ? "udp" : "tcp";
  core::case_result c =
      imported_case("iperf3." + transport, core::network_kind(transport, {"peer"}), src, true);
  std::string peer;
  if (start.contains("connecting_to") && start.at("connecting_to").is_object()) {
    const auto& to = start.at("connecting_to");
    if (to.contains("host") && to.at("host").is_string()) peer = to.at("host").get<std::string>();
    if (const auto port = optional_number(to, "port")) peer += fmt::format(":{}", *port);
  }
  if (!peer.empty()) c.params["peer"] = peer;
  if (const auto n = optional_number(test, "num_streams"))
    c.params["streams"] = static_cast<long long>(*n);
  c.params["direction"] = reverse ? "receive" : "send";

  // The intervals' sums are iperf3's own per-second figures: the samples of the point. The
  // omitted warm-up intervals (-O) are left out, as iperf3 leaves them out of its totals.
  std::vector<double> values;
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    const std::string where = fmt::format("intervals[{}]", i);
    const auto& sum = member(intervals[i], "sum", value_t::object, o, where);
    if (sum.contains("omitted") && sum.at("omitted") == true) continue;
    values.push_back(number_at(sum, "bits_per_second", o, where + ".sum") / 8e9);
  }
  const char* total_key = reverse ? "sum_received" : "sum_sent";
  if (!end.contains(total_key)) total_key = end.contains("sum") ? "sum" : total_key;
  const auto& total = member(end, total_key, value_t::object, o, "end");
  const double total_rate =
      number_at(total, "bits_per_second", o, fmt::format("end.{}", total_key));
  if (values.empty()) values.push_back(total_rate / 8e9);  // one value: the total alone

  const double block = optional_number(test, "blksize").value_or(0);
  core::point_result p = point_of(static_cast<std::uint64_t>(block), values);
  p.extra["total_gbytes_per_s"] = total_rate / 8e9;
  if (end.contains("sum_sent"))
    if (const auto r = optional_number(end.at("sum_sent"), "retransmits"))
      p.extra["retransmits"] = *r;
  if (end.contains("sum_received"))
    if (const auto r = optional_number(end.at("sum_received"), "bits_per_second"))
      p.extra["received_gbytes_per_s"] = *r / 8e9;
  if (end.contains("streams") && end.at("streams").is_array() && !end.at("streams").empty()) {
    const auto& s = end.at("streams")[0];
    if (s.contains("sender"))
      if (const auto rtt = optional_number(s.at("sender"), "mean_rtt"))
        p.extra["mean_rtt_us"] = *rtt;
  }
  if (end.contains("cpu_utilization_percent")) {
    const auto& cpu = end.at("cpu_utilization_percent");
    if (const auto v = optional_number(cpu, "host_total")) p.extra["cpu_percent_local"] = *v;
    if (const auto v = optional_number(cpu, "remote_total")) p.extra["cpu_percent_remote"] = *v;
  }
  if (end.contains("sender_tcp_congestion") && end.at("sender_tcp_congestion").is_string())
    c.context["congestion"] = end.at("sender_tcp_congestion");
  if (const auto mss = optional_number(start, "tcp_mss_default")) c.context["mss"] = *mss;
  c.points.push_back(std::move(p));

  core::result_file file = imported_file(o);
  if (start.contains("system_info") && start.at("system_info").is_string()) {
    // "Linux HOST 5.4.104+ #1 SMP ... x86_64": the local host and its kernel.
    const auto f = split_fields(start.at("system_info").get_ref<const std::string&>());
    if (f.size() >= 3) {
      file.system["host"] = std::string(f[1]);
      file.system["kernel"] = std::string(f[2]);
    }
  }
  if (start.contains("timestamp") && start.at("timestamp").is_object())
    c.context["started"] = start.at("timestamp").value("time", "");
  file.results.push_back(std::move(c));
  return file;
}

}  // namespace gpubench::reports::import
