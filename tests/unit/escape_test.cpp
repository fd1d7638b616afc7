// escape_untrusted: wire or file text can never start a log line of its own.
#include <gtest/gtest.h>

#include <string>

#include "core/escape.hpp"

namespace gpubench::core {
namespace {

TEST(EscapeUntrusted, PrintableAndUtf8PassThrough) {
  EXPECT_EQ(escape_untrusted("gpubench 1.2.3 (x86_64)"), "gpubench 1.2.3 (x86_64)");
  EXPECT_EQ(escape_untrusted("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80"),
            "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80");
}

TEST(EscapeUntrusted, ControlCharactersAreShownNotObeyed) {
  EXPECT_EQ(escape_untrusted("1.0\n2026-01-01 gpubench serve: forged"),
            "1.0\\x0a2026-01-01 gpubench serve: forged");
  EXPECT_EQ(escape_untrusted("a\rb\x1b[2Jc\x7f"), "a\\x0db\\x1b[2Jc\\x7f");
  EXPECT_EQ(escape_untrusted(std::string("nul\0byte", 8)), "nul\\x00byte");
  const std::string once = escape_untrusted("a\nb\x01\xff");
  EXPECT_EQ(escape_untrusted(once), once) << "escaping twice changes nothing";
}

TEST(EscapeUntrusted, InvalidUtf8AndC1ControlsAreEscaped) {
  EXPECT_EQ(escape_untrusted("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(escape_untrusted("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(escape_untrusted("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // surrogate
  EXPECT_EQ(escape_untrusted("\xc2\x85"), "\\xc2\\x85");           // NEL, a C1 newline
  EXPECT_EQ(escape_untrusted("\xe2\x82"), "\\xe2\\x82");           // cut sequence
}

TEST(EscapeUntrusted, LengthIsCappedAndSaysSo) {
  const std::string long_text(100000, 'a');
  const std::string out = escape_untrusted(long_text);
  EXPECT_EQ(out, std::string(200, 'a') + "...(100000 bytes)");
  EXPECT_EQ(escape_untrusted("abcdef", 3), "abc...(6 bytes)");
  // Escaping may grow the text (4 characters per byte) but never without bound.
  EXPECT_LE(escape_untrusted(std::string(5000, '\n')).size(), 4u * 200 + 32);
  EXPECT_EQ(escape_untrusted(""), "");
}

}  // namespace
}  // namespace gpubench::core
