// Fuzzes the server's handshake state machine (transports/control/handshake.hpp), driven as
// serve's handshake_pool drives it, with the input choosing how the client's bytes arrive and
// what the server decides. Input layout:
//   byte 0: the configuration: bits 0-1 the token (0 none, 1 and 3 the fixed fuzz_token,
//           2 a random token drawn once per process, which no input can prove);
//   then records until the input ends: a control byte c, a 2-byte big-endian length n, and n
//   bytes fed to the machine in one feed() (a shorter tail is fed as it is). Per record, in
//   handshake_pool::step's order: c bit 2 set: refuse_busy() first (a session took the slot);
//   then feed(); then, in hello_received, c bit 3 clear: accept(), set: leave it waiting;
//   then c bit 4 set: fail() (the deadline passed). Once established the pool hands the
//   connection to the session and the machine sees nothing more: the run ends there. After
//   failed, records are still fed (the pool only drains): the header says they are ignored.
// A second machine gets the same records a byte per feed(): the header promises any split
// gives the same result, so both must be in the same state and have sent the same frames
// (error texts may differ) after every record. Every step is checked: legal transitions only,
// replies that decode back into well-formed frames, failed is terminal and silent, log lines
// and error texts escaped, a welcome (so `established`) only for a hello and auth the harness
// decodes itself and, with a token, only with the proof it computes; with the random token,
// never. The machine documents no exception: any that escapes is a finding.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/fuzz/fuzz_support.hpp"
#include "transports/control/auth.hpp"
#include "transports/control/frame_reader.hpp"
#include "transports/control/handshake.hpp"

namespace control = gpubench::transports::control;
using gpubench::fuzz::require;

namespace {

// Fixed so the seeds can carry a hello of the right version and a correct proof
// (tests/fuzz/make_corpus.py writes them with the same three strings).
const std::string fuzz_tool = "0.0.0-fuzz";
const std::string fuzz_token = "fuzz-token";
const std::string fuzz_server_nonce(64, 'a');
const std::string peer = "198.18.0.2:40000";

// Inputs over this many bytes are skipped: no handshake frame may be larger than
// max_handshake_payload, and the byte-per-feed machine must stay fast.
constexpr std::size_t max_input = 64 * 1024;

// What the escaping of core/escape.hpp guarantees: well-formed UTF-8 with no C0 control, no
// DEL and no C1 control (U+0080..U+009F), and a bounded length.
bool escaped_text(std::string_view s) {
  if (s.size() > 4096) return false;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) return false;
      ++i;
      continue;
    }
    std::size_t n = 0;
    if (c >= 0xC2 && c <= 0xDF)
      n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
      n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
      n = 4;
    else
      return false;
    if (i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    if (c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) return false;  // C1
    i += n;
  }
  return true;
}

// A reply frame, decoded back from the bytes the machine asked to send.
struct sent_frame {
  control::message type;
  nlohmann::json body;
  std::vector<std::byte> bytes;  // the whole frame as encoded
};

std::vector<sent_frame> decode_replies(const std::vector<std::byte>& bytes) {
  control::frame_reader reader;
  reader.feed(bytes);
  std::vector<sent_frame> out;
  std::size_t at = 0;
  try {
    while (auto f = reader.next()) {
      require(f->version == control::protocol_version, "a reply is not of our version");
      auto body = nlohmann::json::parse(control::as_string(f->payload), nullptr, false);
      require(body.is_object(), "a reply's payload is not a JSON object");
      const std::size_t size = control::frame_header_bytes + f->payload.size();
      out.push_back(
          {f->type, std::move(body),
           std::vector<std::byte>(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                                  bytes.begin() + static_cast<std::ptrdiff_t>(at + size))});
      at += size;
    }
  } catch (const control::protocol_error&) {
    require(false, "a reply does not decode as a frame");
  }
  require(reader.buffered() == 0, "a reply ends with a partial frame");
  return out;
}

std::string string_in(const nlohmann::json& body, const char* key) {
  const auto it = body.find(key);
  return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The client's hello and auth, decoded by the harness from the bytes the machine was fed:
// what an `established` must rest on.
struct client_proof {
  std::string nonce;
  std::string mac;
};

client_proof proof_in(const std::vector<std::byte>& stream) {
  control::frame_reader reader(control::max_handshake_payload);
  reader.feed(stream);
  std::vector<control::frame> frames;
  try {
    while (frames.size() < 2) {
      auto f = reader.next();
      require(f.has_value(), "a welcome was sent before a whole hello and auth arrived");
      frames.push_back(std::move(*f));
    }
  } catch (const control::protocol_error&) {
    require(false, "a welcome was sent on a stream with a bad frame header");
  }
  require(frames[0].type == control::message::hello && frames[1].type == control::message::auth,
          "a welcome was sent for frames other than hello then auth");
  require(frames[0].version == control::protocol_version &&
              frames[1].version == control::protocol_version,
          "a welcome was sent for frames of another version");
  const auto hello = nlohmann::json::parse(control::as_string(frames[0].payload), nullptr, false);
  const auto auth = nlohmann::json::parse(control::as_string(frames[1].payload), nullptr, false);
  require(hello.is_object() && auth.is_object(),
          "a welcome was sent for a hello or auth not an object");
  require(hello.contains("protocol") && hello["protocol"].is_number_integer() &&
              hello["protocol"].get<std::int64_t>() == control::protocol_version,
          "a welcome was sent for a hello of another protocol");
  require(string_in(hello, "tool") == fuzz_tool,
          "a welcome was sent to a client of another version");
  return {string_in(hello, "nonce"), string_in(auth, "mac")};
}

// One machine and everything it has done so far, every step checked.
class checked_machine {
 public:
  explicit checked_machine(const std::string& token)
      : m_token(token), m_machine({token, fuzz_tool, fuzz_server_nonce}, peer) {}

  control::handshake_state state() const { return m_machine.state(); }
  const std::vector<sent_frame>& sent() const { return m_sent; }

  void feed(std::span<const std::byte> bytes) {
    const auto before = state();
    const auto out = m_machine.feed(bytes);
    m_fed.insert(m_fed.end(), bytes.begin(), bytes.end());
    const auto after = state();
    using S = control::handshake_state;
    if (bytes.empty() || before == S::failed)
      require(after == before && out.send.empty() && out.log.empty(),
              "an empty feed, or one after failing, did something");
    else if (before == S::awaiting_hello)
      require(after == S::awaiting_hello || after == S::hello_received || after == S::failed,
              "feed() left awaiting_hello for a state it cannot reach");
    else if (before == S::awaiting_auth)
      require(after == S::awaiting_auth || after == S::established || after == S::failed,
              "feed() left awaiting_auth for a state it cannot reach");
    else
      require(after == S::failed, "bytes before the server's reply did not fail the handshake");
    const auto frames = record(out);
    for (const auto& f : frames)
      require(f.type == control::message::welcome || f.type == control::message::error,
              "feed() sent a frame other than welcome or error");
    if (after == S::hello_received)
      require(m_machine.client_tool() == fuzz_tool, "a hello of another version was received");
    if (after == S::established) on_established(frames);
  }

  void accept() {
    const auto before = state();
    const auto out = m_machine.accept();
    const auto frames = record(out);
    if (before != control::handshake_state::hello_received) {
      require(state() == before && out.send.empty() && out.log.empty(),
              "accept() outside hello_received did something");
      return;
    }
    require(state() == control::handshake_state::awaiting_auth, "accept() did not await auth");
    require(frames.size() == 1 && frames[0].type == control::message::challenge,
            "accept() did not send exactly one challenge");
    const auto& body = frames[0].body;
    require(body.contains("auth") && body["auth"].is_boolean() &&
                body["auth"].get<bool>() == !m_token.empty(),
            "the challenge's auth flag does not say whether a token is required");
    require(string_in(body, "nonce") == fuzz_server_nonce, "the challenge carries another nonce");
    require(string_in(body, "tool") == fuzz_tool, "the challenge names another version");
  }

  void refuse_busy() { end_with(m_machine.refuse_busy("fuzz: the slot is taken"), true); }
  void fail() { end_with(m_machine.fail("fuzz: no complete handshake in time"), false); }

 private:
  // Checks one step's output and keeps its frames; returns them.
  std::vector<sent_frame> record(const control::handshake_output& out) {
    for (const auto& line : out.log)
      require(escaped_text(line), "a log line is not escaped");
    auto frames = decode_replies(out.send);
    for (const auto& f : frames) {
      require(m_sent.empty() || (m_sent.back().type != control::message::error &&
                                 m_sent.back().type != control::message::busy),
              "a frame was sent after error or busy");
      if (f.type == control::message::error || f.type == control::message::busy)
        require(escaped_text(string_in(f.body, "message")), "an error text is not escaped");
      if (f.type == control::message::welcome) check_welcome(f);
      m_sent.push_back(f);
    }
    const bool failed = state() == control::handshake_state::failed;
    require(failed != m_machine.failure().empty(), "failure() does not match the state");
    require(escaped_text(m_machine.failure()), "failure() is not escaped");
    if (failed) {
      require(!m_sent.empty() && (m_sent.back().type == control::message::error ||
                                  m_sent.back().type == control::message::busy),
              "failed without an error or busy frame as the last reply");
    }
    return frames;
  }

  void end_with(const control::handshake_output& out, bool busy) {
    // record() sees the state after the call: compare with the state before by the frames.
    const std::size_t sent_before = m_sent.size();
    const bool was_final = sent_before > 0 && (m_sent.back().type == control::message::error ||
                                               m_sent.back().type == control::message::busy);
    const bool was_established = m_established;
    const auto frames = record(out);
    if (was_final || was_established) {
      require(out.send.empty() && out.log.empty(), "refusing a finished handshake did something");
      require(was_final ? state() == control::handshake_state::failed
                        : state() == control::handshake_state::established,
              "refusing a finished handshake changed its state");
      return;
    }
    require(state() == control::handshake_state::failed, "a refusal did not fail the handshake");
    require(frames.size() == 1 &&
                frames[0].type == (busy ? control::message::busy : control::message::error),
            "a refusal did not send exactly its one frame");
  }

  void on_established(const std::vector<sent_frame>& frames) {
    require(!m_established, "established twice");
    m_established = true;
    require(frames.size() == 1 && frames[0].type == control::message::welcome,
            "established without sending exactly one welcome");
    require(m_sent.size() == 2 && m_sent[0].type == control::message::challenge,
            "established without a challenge before the welcome");
  }

  // A welcome rests on the hello and auth the harness decodes itself from the bytes fed, and
  // with a token on the client's proof, which the harness computes.
  void check_welcome(const sent_frame& welcome) {
    require(!m_sent.empty() && m_sent.back().type == control::message::challenge,
            "a welcome was sent without a challenge before it");
    const client_proof proof = proof_in(m_fed);
    const std::string server_mac = string_in(welcome.body, "mac");
    if (m_token.empty()) {
      require(server_mac.empty(), "a welcome without a token carries a proof");
      return;
    }
    require(proof.mac == control::auth_mac(m_token, "client", proof.nonce, fuzz_server_nonce),
            "a welcome was sent with a token but without the client's proof");
    require(server_mac == control::auth_mac(m_token, "server", proof.nonce, fuzz_server_nonce),
            "the welcome does not carry the server's proof");
  }

  std::string m_token;
  control::server_handshake m_machine;
  std::vector<std::byte> m_fed;  // every byte fed so far
  std::vector<sent_frame> m_sent;
  bool m_established = false;
};

// The error texts differ between splits ("before the server's reply" names a state or not);
// everything else must be the same bytes.
void require_same_replies(const checked_machine& a, const checked_machine& b) {
  require(a.state() == b.state(), "two splits of one stream reached different states");
  require(a.sent().size() == b.sent().size(), "two splits of one stream sent different frames");
  for (std::size_t i = 0; i < a.sent().size(); ++i) {
    const auto& x = a.sent()[i];
    const auto& y = b.sent()[i];
    require(x.type == y.type, "two splits of one stream sent different frames");
    if (x.type != control::message::error)
      require(x.bytes == y.bytes, "two splits of one stream sent different frames");
  }
}

// A token drawn once per process: no input can carry its proof.
const std::string& random_token() {
  static const std::string token = control::make_nonce();
  return token;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (size > max_input) return -1;
  const auto in = gpubench::fuzz::bytes_of(data, size);
  const unsigned token_mode = static_cast<unsigned>(in[0]) & 3u;
  const std::string token = token_mode == 0 ? "" : token_mode == 2 ? random_token() : fuzz_token;

  checked_machine whole(token);   // one feed() per record, as the pool's reads deliver them
  checked_machine single(token);  // the same records a byte per feed()
  std::size_t at = 1;
  while (at < size && whole.state() != control::handshake_state::established) {
    const auto c = static_cast<unsigned>(in[at]);
    std::size_t n = 0;
    if (at + 3 <= size)
      n = static_cast<std::size_t>(in[at + 1]) << 8 | static_cast<std::size_t>(in[at + 2]);
    at = std::min(at + 3, size);
    n = std::min(n, size - at);
    const auto chunk = in.subspan(at, n);
    at += n;

    for (checked_machine* m : {&whole, &single}) {
      if (c & 0x04) m->refuse_busy();
      if (m == &whole) {
        m->feed(chunk);
      } else {
        for (std::size_t i = 0; i < chunk.size(); ++i)
          m->feed(chunk.subspan(i, 1));
      }
      if (m->state() == control::handshake_state::hello_received && !(c & 0x08)) m->accept();
      if (c & 0x10) m->fail();
    }
    require_same_replies(whole, single);
  }
  if (token_mode == 2)
    require(whole.state() != control::handshake_state::established,
            "established with a token no input can prove");
  return 0;
}
