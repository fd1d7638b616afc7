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
  bool on_event(json::parse_event_t event, const json& parsed) {
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
        element_done();
        break;
      case json::parse_event_t::value:
        element_done();
        break;
    }
    return true;  // keep everything
  }

 private:
  struct frame {
    bool object = false;
    std::unordered_set<std::string> keys;  // an object's keys so far
    std::string key;                       // the key whose value is being read
    std::size_t index = 0;                 // an array's element being read
  };

  void element_done() {
    if (!m_frames.empty() && !m_frames.back().object) ++m_frames.back().index;
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

  std::vector<frame> m_frames;
};

}  // namespace

json parse_json_strict(std::istream& in, const std::string& origin) {
  key_tracker tracker;
  try {
    return json::parse(in, [&tracker](int, json::parse_event_t event, json& parsed) {
      return tracker.on_event(event, parsed);
    });
  } catch (const input_error& e) {
    throw input_error(origin + ": " + e.what());
  } catch (const json::parse_error& e) {
    throw input_error(origin + ": not valid JSON (truncated or corrupt): " +
                      std::string(e.what()).substr(0, 200));
  }
}

json read_json_file_strict(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw input_error(path.string() + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path.string() + ": cannot open: " + std::strerror(errno));
  in >> std::ws;
  if (in.peek() == std::ifstream::traits_type::eof())
    throw input_error(path.string() + ": empty file");
  return parse_json_strict(in, path.string());
}

}  // namespace gpubench::core
