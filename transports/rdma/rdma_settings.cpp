#include "transports/rdma/rdma_settings.hpp"

#include <stdexcept>

namespace gpubench::transports::rdma {

namespace {

[[noreturn]] void bad(const std::string& why) {
  throw std::runtime_error("bad RDMA case parameters: " + why);
}

std::int64_t integer(const nlohmann::json& p, const char* key, std::int64_t lo, std::int64_t hi) {
  const auto& v = p.at(key);
  if (!v.is_number_integer()) bad(std::string(key) + " is not an integer");
  const auto x = v.get<std::int64_t>();
  if (x < lo || x > hi)
    bad(std::string(key) + " " + std::to_string(x) + " outside " + std::to_string(lo) + ".." +
        std::to_string(hi));
  return x;
}

std::string text(const nlohmann::json& p, const char* key) {
  const auto& v = p.at(key);
  if (!v.is_string()) bad(std::string(key) + " is not a string");
  return v.get<std::string>();
}

std::optional<std::string> device_name(const nlohmann::json& p, const char* key) {
  if (!p.contains(key) || p.at(key).is_null()) return std::nullopt;
  const auto name = text(p, key);
  if (name.empty() || name.size() > 64) bad(std::string(key) + " has a bad length");
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      bad(std::string(key) + " '" + name + "' is not a device name");
  return name;
}

// The params keys of one side's settings.
struct side_keys {
  const char* device;
  const char* port;
  const char* gid;
  const char* gpu;
  const char* pkey;
};
constexpr side_keys client_keys{"device", "port", "gid_index", "gpu", "pkey_index"};
constexpr side_keys server_keys{"peer_device", "peer_port", "peer_gid_index", "peer_gpu",
                                "peer_pkey_index"};

side_settings side(const nlohmann::json& p, const side_keys& k) {
  side_settings s;
  s.device = device_name(p, k.device);
  if (p.contains(k.port)) s.port = static_cast<int>(integer(p, k.port, 1, 255));
  if (p.contains(k.gid) && !p.at(k.gid).is_null())
    s.gid_index = static_cast<int>(integer(p, k.gid, 0, 65535));
  if (p.contains(k.gpu)) s.gpu = static_cast<int>(integer(p, k.gpu, 0, 1023));
  if (p.contains(k.pkey)) s.pkey_index = static_cast<int>(integer(p, k.pkey, 0, max_pkey_index));
  return s;
}

void put_side(nlohmann::json& j, const side_settings& s, const side_keys& k) {
  if (s.device) j[k.device] = *s.device;
  j[k.port] = s.port;
  if (s.gid_index) j[k.gid] = *s.gid_index;
  j[k.gpu] = s.gpu;
  // Absent means 0: requests of clients before --pkey-index read as they always did.
  if (s.pkey_index != 0) j[k.pkey] = s.pkey_index;
}

}  // namespace

nlohmann::json to_params(const rdma_settings& s) {
  nlohmann::json j;
  j["test"] = s.test == test_kind::latency ? "latency" : "bandwidth";
  j["op"] = to_string(s.op);
  j["memory"] = to_string(s.memory);
  j["max_bytes"] = s.max_bytes;
  j["tx_depth"] = s.tx_depth;
  j["cq_mod"] = s.cq_mod;
  if (s.inline_size) j["inline"] = *s.inline_size;
  if (s.rdma_cm) j["rdma_cm"] = true;
  j["completion"] = to_string(s.completion);
  j["tclass"] = s.tclass;
  j["sl"] = s.sl;
  j["relaxed_ordering"] = s.relaxed_ordering;
  put_side(j, s.client, client_keys);
  put_side(j, s.server, server_keys);
  return j;
}

rdma_settings settings_from(const nlohmann::json& p) {
  if (!p.is_object()) bad("not an object");
  try {
    rdma_settings s;
    const auto test = text(p, "test");
    if (test != "latency" && test != "bandwidth") bad("test '" + test + "'");
    s.test = test == "latency" ? test_kind::latency : test_kind::bandwidth;
    const auto op = text(p, "op");
    if (op == "send")
      s.op = rdma_op::send;
    else if (op == "write")
      s.op = rdma_op::write;
    else if (op == "read")
      s.op = rdma_op::read;
    else
      bad("op '" + op + "'");
    const auto memory = text(p, "memory");
    if (memory != "host" && memory != "cuda") bad("memory '" + memory + "'");
    s.memory = memory == "cuda" ? memory_kind::cuda : memory_kind::host;
    s.max_bytes = static_cast<std::uint64_t>(
        integer(p, "max_bytes", 1, static_cast<std::int64_t>(max_transfer_bytes)));
    s.tx_depth = static_cast<std::uint32_t>(integer(p, "tx_depth", 1, 16384));
    s.cq_mod = static_cast<std::uint32_t>(integer(p, "cq_mod", 1, 16384));
    if (p.contains("inline") && !p.at("inline").is_null())
      s.inline_size = static_cast<std::uint32_t>(integer(p, "inline", 0, 4096));
    if (p.contains("rdma_cm")) {
      if (!p.at("rdma_cm").is_boolean()) bad("rdma_cm is not a boolean");
      s.rdma_cm = p.at("rdma_cm").get<bool>();
    }
    if (p.contains("completion")) {
      const auto c = text(p, "completion");
      if (c != "poll" && c != "event") bad("completion '" + c + "'");
      s.completion = c == "event" ? completion_mode::event : completion_mode::poll;
    }
    if (p.contains("tclass")) s.tclass = static_cast<std::uint8_t>(integer(p, "tclass", 0, 255));
    if (p.contains("sl")) s.sl = static_cast<std::uint8_t>(integer(p, "sl", 0, 15));
    if (p.contains("relaxed_ordering")) {
      if (!p.at("relaxed_ordering").is_boolean()) bad("relaxed_ordering is not a boolean");
      s.relaxed_ordering = p.at("relaxed_ordering").get<bool>();
    }
    s.client = side(p, client_keys);
    s.server = side(p, server_keys);
    return s;
  } catch (const nlohmann::json::exception& e) {
    bad(e.what());
  }
}

}  // namespace gpubench::transports::rdma
