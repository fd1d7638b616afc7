#include "core/strict_json.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <unordered_set>
#include <vector>

#include "core/errors.hpp"

namespace gpubench::core {

using nlohmann::json;

namespace {

// Where the parser is: one frame per open object or array, for duplicate detection and for
// naming the place in an error ("results[2].points[0].stats.median").
class key_tracker {
 public:
  explicit key_tracker(const element_sink* sink) : m_sink(sink) {}

  bool on_event(json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        m_frames.push_back({true, {}, {}, 0});
        break;
      case json::parse_event_t::array_start:
        m_frames.push_back({false, {}, {}, 0});
        break;
      case json::parse_event_t::key: {
        frame& top = m_frames.back();
        std::string key = parsed.get<std::string>();
        if (!top.keys.insert(key).second)
          throw input_error("duplicate key '" + path_with(key) + "' (a key may appear once)");
        top.key = std::move(key);
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        m_frames.pop_back();
        return element_done(parsed);
      case json::parse_event_t::value:
        return element_done(parsed);
    }
    return true;
  }

  // Where the parser is now: the key or element being read ("results[0].points[3]").
  std::string current_path() const {
    std::string path;
    for (const frame& f : m_frames)
      if (f.object)
        path += (path.empty() ? "" : ".") + f.key;
      else
        path += "[" + std::to_string(f.index) + "]";
    return path;
  }

 private:
  struct frame {
    bool object = false;
    std::unordered_set<std::string> keys;  // an object's keys so far
    std::string key;                       // the key whose value is being read
    std::size_t index = 0;                 // an array's element being read
  };

  // A value is complete: counted in its array, and handed to the sink (then dropped) when it
  // is an element of the sink's array. Returns whether the document keeps it.
  bool element_done(json& value) {
    if (m_frames.empty() || m_frames.back().object) return true;
    const bool taken =
        m_sink && m_frames.size() == 2 && m_frames[0].object && m_frames[0].key == m_sink->key;
    if (taken) m_sink->take(m_frames.back().index, value);
    ++m_frames.back().index;
    return !taken;
  }

  std::string path_with(const std::string& key) const {
    std::string path;
    for (std::size_t i = 0; i + 1 < m_frames.size(); ++i) {
      const frame& f = m_frames[i];
      if (f.object)
        path += (path.empty() ? "" : ".") + f.key;
      else
        path += "[" + std::to_string(f.index) + "]";
    }
    return path + (path.empty() ? "" : ".") + key;
  }

  const element_sink* m_sink;
  std::vector<frame> m_frames;
};

}  // namespace

json parse_json_strict(std::istream& in, const std::string& origin, const element_sink* sink) {
  key_tracker tracker(sink);
  try {
    return json::parse(in, [&tracker](int, json::parse_event_t event, json& parsed) {
      return tracker.on_event(event, parsed);
    });
  } catch (const input_error& e) {
    throw input_error(origin + ": " + e.what());
  } catch (const json::out_of_range& e) {
    // A number too large for a double ("1e400"): JSON has no infinity.
    const std::string where = tracker.current_path();
    throw input_error(origin + ": " + (where.empty() ? "" : where + ": ") +
                      "not a finite number: " + std::string(e.what()).substr(0, 200));
  } catch (const json::exception& e) {
    throw input_error(origin + ": not valid JSON (truncated or corrupt): " +
                      std::string(e.what()).substr(0, 200));
  }
}

json read_json_file_strict(const std::filesystem::path& path, const element_sink* sink) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw input_error(path.string() + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path.string() + ": cannot open: " + std::strerror(errno));
  in >> std::ws;
  if (in.peek() == std::ifstream::traits_type::eof())
    throw input_error(path.string() + ": empty file");
  return parse_json_strict(in, path.string(), sink);
}

}  // namespace gpubench::core
