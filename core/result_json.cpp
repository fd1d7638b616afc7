#include "core/result_json.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "core/cluster.hpp"
#include "core/errors.hpp"
#include "core/strict_json.hpp"

namespace gpubench::core {

using nlohmann::json;

std::string to_string(case_status s) {
  switch (s) {
    case case_status::ok:
      return "ok";
    case case_status::skipped:
      return "skipped";
    case case_status::failed:
      return "failed";
  }
  return "failed";
}

bool readable_schema(std::string_view schema) {
  const std::string_view major = result_schema_major;
  if (!schema.starts_with(major)) return false;
  const auto rest = schema.substr(major.size());
  if (rest.empty()) return true;
  // ".N": one or more digits, nothing else.
  if (rest.size() < 2 || rest[0] != '.') return false;
  for (const char ch : rest.substr(1))
    if (ch < '0' || ch > '9') return false;
  return true;
}

std::string to_string(run_status s) {
  switch (s) {
    case run_status::running:
      return "partial";  // a file written mid-run is partial
    case run_status::complete:
      return "complete";
    case run_status::partial:
      return "partial";
    case run_status::failed:
      return "failed";
  }
  return "failed";
}

namespace {

// JSON has no NaN or infinity; a non-finite number is written as null and read back as NaN.
json number(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

json stats_json(const summary& s) {
  json j = {{"count", s.count},       {"min", number(s.min)},       {"max", number(s.max)},
            {"mean", number(s.mean)}, {"median", number(s.median)}, {"stdev", number(s.stdev)},
            {"cv", number(s.cv)},     {"p90", number(s.p90)},       {"p99", number(s.p99)}};
  if (s.p999) j["p99_9"] = number(*s.p999);
  return j;
}

// Walks a JSON document while remembering where it is, for error messages.
class reader {
 public:
  reader(const json& j, std::string path) : m_j(j), m_path(std::move(path)) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw input_error(m_path.empty() ? what : m_path + ": " + what);
  }
  const json& raw() const { return m_j; }
  const std::string& path() const { return m_path; }

  reader at(const std::string& key) const {
    if (!m_j.is_object()) fail("expected an object");
    auto it = m_j.find(key);
    if (it == m_j.end()) reader(m_j, child(key)).fail("missing");
    return reader(*it, child(key));
  }
  bool has(const std::string& key) const { return m_j.is_object() && m_j.contains(key); }
  reader at(std::size_t i) const {
    return reader(m_j.at(i), m_path + "[" + std::to_string(i) + "]");
  }

  std::string str() const {
    if (!m_j.is_string()) fail("expected a string");
    return m_j.get<std::string>();
  }
  double num() const {
    if (m_j.is_null()) return std::nan("");
    if (!m_j.is_number()) fail("expected a number");
    const double v = m_j.get<double>();
    // A literal too large for a double (1e400) parses as infinity: JSON has no infinity.
    if (!std::isfinite(v)) fail("not a finite number");
    return v;
  }
  std::uint64_t count() const {
    if (!m_j.is_number_unsigned() && !(m_j.is_number_integer() && m_j.get<std::int64_t>() >= 0))
      fail("expected a non-negative integer");
    return m_j.get<std::uint64_t>();
  }
  const json& object() const {
    if (!m_j.is_object()) fail("expected an object");
    return m_j;
  }
  std::size_t array_size() const {
    if (!m_j.is_array()) fail("expected an array");
    return m_j.size();
  }
  template <class E>
  E choice(std::initializer_list<std::pair<const char*, E>> options) const {
    const std::string s = str();
    for (const auto& [name, value] : options)
      if (s == name) return value;
    fail("unexpected value '" + s + "'");
  }

 private:
  std::string child(const std::string& key) const {
    return m_path.empty() ? key : m_path + "." + key;
  }
  const json& m_j;
  std::string m_path;
};

// What a measured value of a case may be: within plausible_limit (core/result.hpp); a larger
// value is corruption, and its square (in a standard deviation) could overflow to infinity.

struct value_rules {
  bool non_negative = false;  // latency and bandwidth cannot be below zero
};

value_rules rules_for(const std::string& metric) {
  return {metric == "latency" || metric == "bandwidth"};
}

// A sample or a statistic: finite, within the plausible limit, and not negative where the
// metric cannot be. `required`: null (a non-finite value as written) is refused too.
double measured(const reader& r, const value_rules& rules, bool required) {
  if (required && r.raw().is_null()) r.fail("expected a finite number, found null");
  const double v = r.num();
  if (std::isnan(v)) return v;
  if (std::fabs(v) > plausible_limit)
    r.fail(
        fmt::format("{:g} is beyond any plausible measurement (limit {:g})", v, plausible_limit));
  if (rules.non_negative && v < 0)
    r.fail(fmt::format("{:g} is negative, which this metric cannot be", v));
  return v;
}

summary read_stats(const reader& r, const value_rules& rules) {
  summary s;
  s.count = r.at("count").count();
  s.min = measured(r.at("min"), rules, false);
  s.max = measured(r.at("max"), rules, false);
  s.mean = measured(r.at("mean"), rules, false);
  s.median = measured(r.at("median"), rules, false);
  s.stdev = measured(r.at("stdev"), rules, false);
  s.cv = measured(r.at("cv"), rules, false);
  s.p90 = measured(r.at("p90"), rules, false);
  s.p99 = measured(r.at("p99"), rules, false);
  if (r.has("p99_9")) s.p999 = measured(r.at("p99_9"), rules, false);
  return s;
}

point_result read_point(const reader& r, const value_rules& rules, bool ok_case) {
  point_result p;
  p.bytes = r.at("bytes").count();
  p.stats = read_stats(r.at("stats"), rules);
  const reader samples = r.at("samples");
  const std::size_t n = samples.array_size();
  // The raw samples are what compare tests; a measured point without them is broken.
  if (ok_case && n == 0) samples.fail("empty in a point of a case whose status is ok");
  p.samples.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    p.samples.push_back(measured(samples.at(i), rules, ok_case));
  if (r.has("extra")) p.extra = r.at("extra").object();
  if (r.has("stopped_by")) p.stopped_by = r.at("stopped_by").str();
  if (r.has("warmup")) p.warmup = r.at("warmup").count();
  if (r.has("seconds")) p.seconds = r.at("seconds").num();
  return p;
}

case_result read_case(const reader& r) {
  case_result c;
  c.benchmark = r.at("benchmark").str();
  if (r.has("kind")) {
    try {
      c.kind = kind_from_json(r.at("kind").object());
    } catch (const std::invalid_argument& e) {
      r.at("kind").fail(e.what());
    }
  } else {
    c.kind = kind_of_format_1_0(c.benchmark);
  }
  c.params = r.at("params").object();
  c.status = r.at("status").choice<case_status>({{"ok", case_status::ok},
                                                 {"skipped", case_status::skipped},
                                                 {"failed", case_status::failed}});
  if (r.has("reason")) c.reason = r.at("reason").str();
  if (c.status != case_status::ok && c.reason.empty())
    r.at("reason").fail("required when status is not ok");
  c.metric = r.at("metric").str();
  c.unit = r.at("unit").str();
  c.better = r.at("better").choice<std::string>({{"higher", "higher"}, {"lower", "lower"}});
  if (r.has("peak") && !r.at("peak").raw().is_null()) {
    const reader p = r.at("peak");
    c.peak = peak_info{p.at("value").num(), p.at("unit").str(), p.at("basis").str()};
  }
  if (r.has("context")) c.context = r.at("context").object();
  if (r.has("imported") && r.at("imported").raw() == true) {
    import_source src;
    if (r.has("source")) {
      const reader s = r.at("source");
      const auto text = [&](const char* key) { return s.has(key) ? s.at(key).str() : ""; };
      src = {text("tool"), text("version"), text("command"), text("file"), text("test")};
    }
    c.imported = std::move(src);
  }
  const value_rules rules = rules_for(c.metric);
  const reader points = r.at("points");
  const std::size_t n = points.array_size();
  for (std::size_t i = 0; i < n; ++i)
    c.points.push_back(read_point(points.at(i), rules, c.status == case_status::ok));
  return c;
}

}  // namespace

json case_to_json(const case_result& c) {
  json points = json::array();
  for (const auto& p : c.points) {
    json samples = json::array();
    for (double v : p.samples)
      samples.push_back(number(v));
    points.push_back({{"bytes", p.bytes},
                      {"stats", stats_json(p.stats)},
                      {"samples", std::move(samples)},
                      {"extra", p.extra},
                      {"stopped_by", p.stopped_by},
                      {"warmup", p.warmup},
                      {"seconds", number(p.seconds)}});
  }
  json jc = {{"benchmark", c.benchmark},
             {"params", c.params},
             {"status", to_string(c.status)},
             {"metric", c.metric},
             {"unit", c.unit},
             {"better", c.better},
             {"context", c.context},
             {"points", std::move(points)}};
  if (!c.kind.empty()) jc["kind"] = to_json(c.kind);
  if (c.status != case_status::ok) jc["reason"] = c.reason;
  if (c.imported) {
    jc["imported"] = true;
    json src = json::object();
    const std::pair<const char*, const std::string*> fields[] = {{"tool", &c.imported->tool},
                                                                 {"version", &c.imported->version},
                                                                 {"command", &c.imported->command},
                                                                 {"file", &c.imported->file},
                                                                 {"test", &c.imported->test}};
    for (const auto& [key, value] : fields)
      if (!value->empty()) src[key] = *value;
    jc["source"] = std::move(src);
  }
  if (c.peak)
    jc["peak"] = {
        {"value", number(c.peak->value)}, {"unit", c.peak->unit}, {"basis", c.peak->basis}};
  return jc;
}

case_result case_from_json(const json& j, const std::string& path) {
  return read_case(reader(j, path));
}

json to_json(const result_file& f) {
  json results = json::array();
  for (const auto& c : f.results)
    results.push_back(case_to_json(c));
  json j = {{"schema", f.schema},
            {"tool", {{"name", f.tool.name}, {"version", f.tool.version}, {"git", f.tool.git}}},
            {"run",
             {{"id", f.run.id},
              {"started", f.run.started},
              {"finished", f.run.finished},
              {"argv", f.run.argv},
              {"suite", f.run.suite},
              {"status", to_string(f.run.status)}}},
            {"system", f.system},
            {"results", std::move(results)}};
  if (f.cluster) j["cluster"] = cluster_to_json(*f.cluster);
  return j;
}

namespace {

// Cases read while the file is parsed (read_result_file), so the "results" array is never a
// JSON document in memory; the first error is kept until the schema has been checked, which
// says more about a file of another kind or version than a field deep in a case would.
struct streamed_cases {
  std::vector<case_result> cases;
  std::optional<std::string> error;

  void take(std::size_t index, const json& element) {
    if (error) return;
    try {
      cases.push_back(read_case(reader(element, "results[" + std::to_string(index) + "]")));
    } catch (const input_error& e) {
      error = e.what();
    } catch (const json::exception& e) {
      error = e.what();
    }
  }
};

result_file convert(const json& j, const std::string& origin, streamed_cases* streamed) {
  try {
    const reader r(j, "");
    if (!j.is_object()) r.fail("not a gpubench result (expected a JSON object)");
    if (!j.contains("schema")) r.fail("no \"schema\" field: not a gpubench result file");
    const std::string schema = r.at("schema").str();
    if (!readable_schema(schema))
      r.fail("schema is '" + schema + "', this gpubench reads '" + result_schema_major +
             "' and its minor versions ('" + result_schema_major + ".N')");
    if (streamed && streamed->error) r.fail(*streamed->error);
    result_file f;
    const reader tool = r.at("tool");
    f.tool = {tool.at("name").str(), tool.at("version").str(), tool.at("git").str()};
    const reader run = r.at("run");
    f.run.id = run.at("id").str();
    f.run.started = run.at("started").str();
    f.run.finished = run.at("finished").str();
    const reader argv = run.at("argv");
    for (std::size_t i = 0, n = argv.array_size(); i < n; ++i)
      f.run.argv.push_back(argv.at(i).str());
    f.run.suite = run.at("suite").str();
    f.run.status = run.at("status").choice<run_status>({{"complete", run_status::complete},
                                                        {"partial", run_status::partial},
                                                        {"failed", run_status::failed}});
    f.system = r.at("system").object();
    const reader results = r.at("results");
    const std::size_t n = results.array_size();  // empty when its cases were streamed
    if (streamed) f.results = std::move(streamed->cases);
    for (std::size_t i = 0; i < n; ++i)
      f.results.push_back(read_case(results.at(i)));
    if (r.has("cluster")) f.cluster = cluster_from_json(r.at("cluster").object());
    return f;
  } catch (const input_error& e) {
    throw input_error(origin + ": " + e.what());
  } catch (const json::exception& e) {
    throw input_error(origin + ": " + e.what());
  }
}

}  // namespace

result_file result_from_json(const json& j, const std::string& origin) {
  return convert(j, origin, nullptr);
}

result_file read_result_file(const std::filesystem::path& path) {
  streamed_cases streamed;
  const element_sink sink{"results",
                          [&streamed](std::size_t i, json& element) { streamed.take(i, element); }};
  const json j = read_json_file_strict(path, &sink);
  return convert(j, path.string(), &streamed);
}

void write_file_atomically(const std::filesystem::path& path, const std::string& content,
                           bool sync) {
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  if (!dir.empty()) std::filesystem::create_directories(dir);
  const std::filesystem::path tmp =
      dir / ("." + path.filename().string() + ".tmp." + std::to_string(::getpid()));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(errno_message("writing " + tmp.string(), errno));
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw std::runtime_error(errno_message("writing " + tmp.string(), err));
    }
    done += static_cast<std::size_t>(n);
  }
  if (sync) ::fsync(fd);
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error(
        errno_message("renaming " + tmp.string() + " to " + path.string(), err));
  }
}

void write_result_file(const std::filesystem::path& path, const result_file& file, bool sync) {
  write_file_atomically(path, to_json(file).dump(1) + "\n", sync);
}

std::string rfc3339_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace gpubench::core
