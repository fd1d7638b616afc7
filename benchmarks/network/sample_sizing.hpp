// How many messages one bandwidth sample moves: sized from the rate measured on the path
// (calibration probes before the point), so a sample lasts long enough to be a steady rate on a
// fast path and short enough that a slow device still gives its samples within the timeout.
// Pure logic, shared by TCP and RDMA; the driver runs the probes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpubench::benchmarks::network {

// What a bandwidth sample aims at. Counts are per stream (and per way for bidir): a sample's
// duration does not depend on how many streams share it.
struct sample_target {
  double seconds = 0.05;             // transfer time of one sample at the measured rate
  double max_seconds = 0.1;          // the floors below never push a sample past this
  std::uint64_t floor_messages = 0;  // perftest's iteration count (--rdma-iters), or 0
  std::uint64_t floor_bytes = 0;     // what the socket buffers / the RDMA window can hold
};

// Messages per stream of one sample of `bytes`-sized messages on a path that moved
// `messages_per_second` per stream: enough for `seconds`, raised to the floors as far as
// `max_seconds` allows, at least 1. Throws std::invalid_argument on a rate that is not a
// positive finite number or on 0 bytes.
std::uint64_t sample_messages(const sample_target& target, std::uint64_t bytes,
                              double messages_per_second);

// The time limit of a bandwidth point whose samples are expected to last `sample_seconds`
// (the sized sample at the calibrated rate): the criteria's `timeout`, raised so that
// `min_samples` such samples fit with half as much again to spare (a calibrated rate may read
// high, and each sample adds a control round trip). Without it, samples raised to their 100 ms
// cap (a path whose socket buffers hold 256 MiB) gave 4 samples in a 0.4 s point, below the
// rule's minimum of 5. Throws std::invalid_argument on a duration that is negative or not finite.
double bandwidth_point_limit_s(double sample_seconds, std::size_t min_samples, double timeout);

// The probes that measure the rate before a point: each probe is one sample of probe()
// messages per stream; the first is small (1 MiB per stream, at most 1024 messages) so a slow
// device spends milliseconds on it, the next is sized from the last rate for half the target,
// and calibration ends with the first probe from the second on that lasts a quarter of the
// target (long enough that socket buffers and caches no longer decide its rate) or after
// `max_probes`.
class sample_calibration {
 public:
  static constexpr int max_probes = 5;

  sample_calibration(const sample_target& target, std::uint64_t bytes);

  // Messages per stream of the next probe.
  std::uint64_t probe() const { return m_probe; }
  // The last probe took `seconds`; returns true when calibration is over.
  bool add(double seconds);
  bool done() const { return m_done; }
  int probes() const { return m_probes; }
  // Per stream, of the last probe (0 before the first).
  double messages_per_second() const { return m_rate; }
  // The sized sample: sample_messages() at the last probe's rate. Throws std::logic_error
  // before done().
  std::uint64_t messages() const;

 private:
  sample_target m_target;
  std::uint64_t m_bytes;
  std::uint64_t m_probe;
  int m_probes = 0;
  double m_rate = 0;
  bool m_done = false;
};

}  // namespace gpubench::benchmarks::network
