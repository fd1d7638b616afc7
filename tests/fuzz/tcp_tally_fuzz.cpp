// Fuzzes what a TCP bandwidth client reads from its peer's tally connection
// (transports/tcp/tally.hpp): the words of a mark and the window between two marks. Words that
// are not whole must be refused with std::invalid_argument, marks that go back in time or in
// bytes with std::runtime_error; what is accepted re-encodes to the same bytes, and a window
// is positive and never counts more than the later mark holds.
#include <algorithm>
#include <cmath>

#include "tests/fuzz/fuzz_support.hpp"
#include "transports/tcp/tally.hpp"

namespace tcp = gpubench::transports::tcp;
using gpubench::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t streams = 1 + data[0] % 8;
  const auto in = gpubench::fuzz::bytes_of(data + 1, size - 1);
  std::vector<std::uint64_t> words;
  try {
    words = tcp::decode_words(in);
  } catch (const std::invalid_argument&) {
    require(in.size() % 8 != 0, "whole words refused");
    return 0;
  }
  require(in.size() % 8 == 0, "a partial word accepted");
  const auto again = tcp::encode_words(words);
  require(std::equal(again.begin(), again.end(), in.begin(), in.end()),
          "encode_words(decode_words(bytes)) != bytes");
  if (words.size() < 2 * (streams + 1)) return 0;
  const auto mark = [&](std::size_t at) {
    tcp::tally_mark m;
    m.nanoseconds = words[at];
    m.received.assign(words.begin() + static_cast<std::ptrdiff_t>(at + 1),
                      words.begin() + static_cast<std::ptrdiff_t>(at + 1 + streams));
    return m;
  };
  const auto from = mark(0), to = mark(streams + 1);
  try {
    const auto d = tcp::delta(from, to);
    require(d.seconds > 0 && std::isfinite(d.seconds), "a window that is not positive");
    require(d.bytes.size() == streams, "a window of other streams");
    for (std::size_t i = 0; i < streams; ++i)
      require(d.bytes[i] == to.received[i] - from.received[i] && d.bytes[i] <= to.received[i],
              "a window counting bytes the marks do not hold");
  } catch (const std::runtime_error&) {
    bool back = to.nanoseconds <= from.nanoseconds;
    for (std::size_t i = 0; i < streams; ++i)
      back = back || to.received[i] < from.received[i];
    require(back, "good marks refused");
  }
  return 0;
}
