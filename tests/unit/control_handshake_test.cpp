// The server's handshake state machine and the incremental frame reader, with no socket:
// any split of the byte stream, bad frames, versions, tokens, busy, and escaped log lines.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "transports/control/auth.hpp"
#include "transports/control/frame_reader.hpp"
#include "transports/control/handshake.hpp"

namespace gpubench::transports::control {
namespace {

const std::string hs_tool = "9.8.7";

std::vector<std::byte> hs_frame(message type, const nlohmann::json& body) {
  return encode_frame(type, as_bytes(body.dump()));
}

std::vector<std::byte> hs_hello(const std::string& tool_text = hs_tool,
                                const std::string& nonce = "cn") {
  return hs_frame(message::hello,
                  {{"protocol", protocol_version}, {"tool", tool_text}, {"nonce", nonce}});
}

server_handshake make_handshake(const std::string& token = "") {
  return server_handshake({token, hs_tool, "sn"}, "127.0.0.1:4000");
}

// The frames in `bytes` (the machine's replies).
std::vector<frame> hs_frames(const std::vector<std::byte>& bytes) {
  frame_reader r;
  r.feed(bytes);
  std::vector<frame> out;
  while (auto f = r.next())
    out.push_back(std::move(*f));
  EXPECT_EQ(r.buffered(), 0u);
  return out;
}

nlohmann::json hs_body(const frame& f) {
  return nlohmann::json::parse(as_string(f.payload));
}

TEST(FrameReader, AnySplitGivesTheSameFrames) {
  auto bytes = hs_hello();
  const auto second = hs_frame(message::auth, {{"mac", "m"}});
  bytes.insert(bytes.end(), second.begin(), second.end());
  for (std::size_t chunk = 1; chunk <= bytes.size(); ++chunk) {
    frame_reader r;
    std::vector<message> got;
    for (std::size_t at = 0; at < bytes.size(); at += chunk) {
      r.feed(std::span(bytes).subspan(at, std::min(chunk, bytes.size() - at)));
      while (auto f = r.next())
        got.push_back(f->type);
    }
    ASSERT_EQ(got, (std::vector<message>{message::hello, message::auth})) << "chunk " << chunk;
  }
}

TEST(FrameReader, OversizedHeaderIsRefusedBeforeItsPayload) {
  frame_reader r(1024);
  r.feed(encode_header({frame_magic, protocol_version, 1, 1u << 20}));
  EXPECT_THROW(r.next(), protocol_error);
  frame_reader garbage;
  garbage.feed(as_bytes(std::string("GET / HTTP/1.0\r\n")));
  EXPECT_THROW(garbage.next(), protocol_error);
}

TEST(ServerHandshake, WithoutTokenHelloAcceptAuthWelcome) {
  auto hs = make_handshake();
  auto bytes = hs_hello();
  // Byte by byte: nothing happens before the hello is complete.
  for (std::size_t i = 0; i + 1 < bytes.size(); ++i) {
    const auto out = hs.feed(std::span(bytes).subspan(i, 1));
    EXPECT_TRUE(out.send.empty());
    EXPECT_EQ(hs.state(), handshake_state::awaiting_hello);
  }
  hs.feed(std::span(bytes).subspan(bytes.size() - 1));
  EXPECT_EQ(hs.state(), handshake_state::hello_received);
  auto out = hs.accept();
  auto replies = hs_frames(out.send);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].type, message::challenge);
  EXPECT_EQ(hs_body(replies[0])["auth"], false);
  EXPECT_EQ(hs_body(replies[0])["nonce"], "sn");
  out = hs.feed(hs_frame(message::auth, {{"mac", ""}}));
  replies = hs_frames(out.send);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].type, message::welcome);
  EXPECT_EQ(hs.state(), handshake_state::established);
}

TEST(ServerHandshake, TokenIsCheckedAndTheServerProvesIt) {
  auto hs = make_handshake("secret");
  hs.feed(hs_hello());
  hs.accept();
  const auto out =
      hs.feed(hs_frame(message::auth, {{"mac", auth_mac("secret", "client", "cn", "sn")}}));
  ASSERT_EQ(hs.state(), handshake_state::established);
  const auto replies = hs_frames(out.send);
  EXPECT_EQ(hs_body(replies.at(0))["mac"], auth_mac("secret", "server", "cn", "sn"));

  auto wrong = make_handshake("secret");
  wrong.feed(hs_hello());
  wrong.accept();
  const auto refused =
      wrong.feed(hs_frame(message::auth, {{"mac", auth_mac("other", "client", "cn", "sn")}}));
  EXPECT_EQ(wrong.state(), handshake_state::failed);
  EXPECT_EQ(hs_frames(refused.send).at(0).type, message::error);
  EXPECT_NE(wrong.failure().find("token does not match"), std::string::npos);

  // A reflected server proof is not a client proof.
  auto reflected = make_handshake("secret");
  reflected.feed(hs_hello());
  reflected.accept();
  reflected.feed(hs_frame(message::auth, {{"mac", auth_mac("secret", "server", "cn", "sn")}}));
  EXPECT_EQ(reflected.state(), handshake_state::failed);
}

TEST(ServerHandshake, BadInputFailsWithAnErrorFrameAndNeverThrows) {
  const std::vector<std::vector<std::byte>> inputs = {
      hs_frame(message::auth, {{"mac", ""}}),                            // auth before hello
      hs_frame(message::hello, nlohmann::json::array({1, 2})),           // not an object
      hs_frame(message::hello, {{"protocol", "1"}, {"tool", hs_tool}}),  // wrong types
      hs_frame(message::hello, {{"protocol", protocol_version}, {"tool", 7}}),
      hs_frame(message::case_open, {{"transport", "tcp"}}),  // skips the handshake
      encode_frame(message::hello, as_bytes(std::string("{not json"))),
      hs_hello("0.0.1"),
      encode_frame(message::hello, as_bytes(std::string("{}")), protocol_version + 1),
  };
  for (const auto& in : inputs) {
    auto hs = make_handshake();
    const auto out = hs.feed(in);
    EXPECT_EQ(hs.state(), handshake_state::failed) << as_string(in);
    const auto replies = hs_frames(out.send);
    ASSERT_EQ(replies.size(), 1u);
    EXPECT_EQ(replies[0].type, message::error);
    EXPECT_FALSE(hs.failure().empty());
    EXPECT_TRUE(hs.feed(hs_hello()).send.empty()) << "a failed handshake stays failed";
  }
}

TEST(ServerHandshake, DeclaredLargeHelloIsRefusedAtOnce) {
  auto hs = make_handshake();
  hs.feed(encode_header({frame_magic, protocol_version, 1, 1u << 20}));
  EXPECT_EQ(hs.state(), handshake_state::failed);
  EXPECT_NE(hs.failure().find("over the limit"), std::string::npos) << hs.failure();
}

TEST(ServerHandshake, DataBeforeOurReplyIsAProtocolError) {
  auto hs = make_handshake();
  auto bytes = hs_hello();
  const auto early = hs_frame(message::auth, {{"mac", ""}});
  bytes.insert(bytes.end(), early.begin(), early.end());
  hs.feed(bytes);
  EXPECT_EQ(hs.state(), handshake_state::failed) << "auth pipelined before the challenge";
}

TEST(ServerHandshake, BusyAndFail) {
  auto hs = make_handshake();
  hs.feed(hs_hello());
  const auto out = hs.refuse_busy("another session is running");
  EXPECT_EQ(hs_frames(out.send).at(0).type, message::busy);
  EXPECT_EQ(hs.state(), handshake_state::failed);
  EXPECT_TRUE(hs.accept().send.empty());

  auto slow = make_handshake();
  const auto timed_out = slow.fail("no complete handshake within 3.0 s");
  EXPECT_EQ(hs_frames(timed_out.send).at(0).type, message::error);
  EXPECT_EQ(slow.state(), handshake_state::failed);
}

TEST(ServerHandshake, WireTextInLogsAndRepliesIsEscaped) {
  auto hs = make_handshake();
  const auto out = hs.feed(hs_hello("1.0\n2026-01-01T00:00:00Z gpubench serve: session from evil"));
  ASSERT_EQ(hs.state(), handshake_state::failed);
  ASSERT_FALSE(out.log.empty());
  for (const auto& line : out.log)
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  EXPECT_NE(out.log[0].find("1.0\\x0a2026"), std::string::npos) << out.log[0];
  const auto reply = hs_body(hs_frames(out.send).at(0))["message"].get<std::string>();
  EXPECT_EQ(reply.find('\n'), std::string::npos) << reply;

  auto quitter = make_handshake();
  quitter.feed(hs_hello());
  const auto gave_up = quitter.feed(hs_frame(message::error, {{"message", "bye\r\nforged"}}));
  EXPECT_EQ(gave_up.log.at(0).find('\n'), std::string::npos) << gave_up.log.at(0);
  EXPECT_EQ(gave_up.log.at(0).find('\r'), std::string::npos) << gave_up.log.at(0);
}

}  // namespace
}  // namespace gpubench::transports::control
