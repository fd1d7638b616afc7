// The Transport abstraction: the two sides of a point-to-point link (TCP, RDMA verbs) that the
// network benchmarks drive with one shared loop, so every transport is measured alike.
//
// Design note.
// - A case opens a *session* with a peer (`gpubench serve`, or an in-process server on
//   loopback) over the control channel (control/), and names a transport ("tcp", "rdma").
//   The client side builds an `active_endpoint`, the server side a `passive_endpoint`, both
//   through the transport's `transport_entry`. While they are built, each may exchange its own
//   out-of-band blobs with the other through `oob_channel` (TCP: the data port; RDMA: LID, QPN,
//   PSN, rkey, address, GID). After construction the control channel belongs to the session.
// - A case is a sequence of *points* (one message size each). For each point the active side
//   is `prepare`d, the passive side is told the `point_spec` and `prepare`d, then the runner
//   calls `run_sample()` as often as its stopping rule wants: the number of samples is only
//   known at the end. Then the session tells the passive side to stop: `passive::serve` watches
//   `point_control` (a file descriptor to poll, or a cheap non-blocking check), returns its
//   totals, and they travel back to the client. Nothing in the data path carries sample
//   counts; a passive side that must take part per sample (bidirectional streams, RDMA send
//   receives) synchronises in-band on its own data path (TCP: on its own tally connection).
//   The stop carries the active side's message count (`sent_messages`), so a passive side
//   that counts arrivals ends the point on exactly those; after the stop, anything more on
//   the control connection means the client left (`point_control::check_quiet`).
// - A latency sample is `iterations` round trips (ping-pong); the one-way value is the round
//   trip divided by `latency_divisor()` (2; 1 for RDMA read, where one read is the round trip).
//   A bandwidth sample moves `iterations` messages of `bytes` per stream in the point's
//   direction (both ways for bidir) and ends when the last one is complete at its receiver;
//   or, for a transport with counted_samples() (TCP, as iperf3 -P), its streams run for the
//   whole point and a sample is a window of `seconds` in which every stream's delivered bytes
//   are counted and summed, so a slow stream costs only its own bytes.
// - Both sides count their own CPU time (getrusage of the threads that did the work, so an
//   in-process loopback server is not counted twice) and the bytes and messages they moved;
//   the control session adds each side's whole-machine CPU time over the point
//   (core/system/machine_cpu.hpp), which takes in the interrupts and softirqs of other cores.
// - Every wait is bounded by `endpoint_setup::io_timeout` without progress; errors name the
//   peer and what was being done.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "core/system/machine_cpu.hpp"

namespace gpubench::transports {

// Which way a bandwidth point moves data, seen from the active (client) side.
enum class direction { to_peer, from_peer, bidir };
std::string to_string(direction d);
// "to_peer" | "from_peer" | "bidir"; throws core::usage_error otherwise.
direction parse_direction(const std::string& text);

enum class pattern { latency, bandwidth };

// One point of a case, as both sides agree on it.
struct point_spec {
  pattern kind = pattern::latency;
  direction dir = direction::to_peer;  // bandwidth only
  std::uint64_t bytes = 0;             // message size
  std::uint64_t iterations = 1;        // round trips (latency) or messages per stream (bandwidth)
  // Bandwidth samples of fixed duration (a transport with counted_samples()): seconds each;
  // 0: every sample moves `iterations` messages per stream.
  double seconds = 0;
};
nlohmann::json to_json(const point_spec& p);
point_spec point_spec_from_json(const nlohmann::json& j);  // throws std::runtime_error if bad

// CPU time in seconds, user and system.
struct cpu_usage {
  double user = 0;
  double system = 0;
  double total() const { return user + system; }
  cpu_usage& operator+=(const cpu_usage& o) {
    user += o.user;
    system += o.system;
    return *this;
  }
  // getrusage(RUSAGE_THREAD) of the calling thread.
  static cpu_usage this_thread();
};
cpu_usage operator-(const cpu_usage& a, const cpu_usage& b);

// What one side spent and moved during one point (warm-up included: both sides count the same
// samples, so per-GB and per-message costs are unaffected).
struct point_totals {
  cpu_usage cpu;               // the transport's own threads
  std::uint64_t bytes = 0;     // payload bytes this side sent or received
  std::uint64_t messages = 0;  // messages this side sent or received
  // The whole machine of this side over the point (the control session measures it, the same
  // for every transport: core/system/machine_cpu.hpp); absent from peers older than it, or without
  // /proc/stat. `machine` names the kernel it was read from (its boot id).
  std::optional<core::machine_cpu> machine_cpu_time;
  std::string machine;
};
nlohmann::json to_json(const point_totals& t);
point_totals point_totals_from_json(const nlohmann::json& j);

// The control channel as a transport sees it while its endpoints are being built: its own
// blobs to and from the peer, in order. Blocks at most `timeout`; an error reply from the peer
// or a lost connection throws std::runtime_error naming the peer.
class oob_channel {
 public:
  virtual ~oob_channel() = default;
  virtual void send_blob(std::span<const std::byte> data) = 0;
  virtual std::vector<std::byte> receive_blob(std::chrono::milliseconds timeout) = 0;
  // "198.18.0.2:18515" (client side: the server; server side: the client).
  virtual std::string peer_name() const = 0;
  // Numeric addresses of the control connection: a transport can pick the same path (the
  // local interface that reaches the peer, or the peer's address to connect data streams to).
  virtual std::string local_address() const = 0;
  virtual std::string peer_address() const = 0;
};

// The control channel as a passive endpoint sees it while serving a point.
class point_control {
 public:
  virtual ~point_control() = default;
  // Becomes readable when the active side ends the point (or the connection breaks): add it to
  // poll() beside the data sockets.
  virtual int fd() const = 0;
  // Non-blocking: true once the active side ended the point. Throws when the control
  // connection broke or sent anything else.
  virtual bool stop_requested() = 0;
  // Blocks up to `timeout`; returns stop_requested().
  virtual bool wait(std::chrono::milliseconds timeout) = 0;
  // After the stop: how many messages the active side moved in the point, every one complete
  // at its end (point_end carries it), so a side that counts arrivals can wait for exactly
  // that many; nullopt when the active side did not say (older clients, TCP).
  virtual std::optional<std::uint64_t> sent_messages() const = 0;
  // After the stop the active side only waits for this side's totals: anything it sends then
  // (an error, a bye, or EOF) means it gave up on the point. Non-blocking; throws naming what
  // came when something did, so the point ends at once and the server is free.
  virtual void check_quiet() = 0;
};

// What both factories get.
struct endpoint_setup {
  // The case's negotiated parameters (streams, direction, op, memory, device, busy_poll ...),
  // identical on both sides: the client sends them in the case request.
  nlohmann::json params = nlohmann::json::object();
  oob_channel* oob = nullptr;
  // A wait that makes no progress for this long fails with the peer's name.
  std::chrono::milliseconds io_timeout{5000};
  // Set on the client when SIGINT/SIGTERM arrived; waits may end early.
  std::function<bool()> interrupted;
};

class active_endpoint {
 public:
  virtual ~active_endpoint() = default;
  // The path this case crosses, for the result's `context`: interface, speed_mbps, numa, mtu,
  // device, provider, link_layer ...; merged with the session's peer labels.
  virtual nlohmann::json describe() const = 0;
  // Line rate of the path in GB/s when known (NIC speed / 8), for the result's `peak`.
  virtual std::optional<core::peak_info> peak() const { return std::nullopt; }
  // Buffers and state for a point; the passive side is told after this returns.
  virtual void prepare(const point_spec& spec) = 0;
  // One sample of the prepared point (see the design note). Throws on error or timeout.
  virtual void run_sample() = 0;
  // The point is over (the passive side has been told to stop): this side's totals since
  // prepare().
  virtual point_totals finish() = 0;
  // One-way latency = sample time / iterations / this.
  virtual double latency_divisor() const { return 2; }
  // When the case's buffers (on either side) hold less than its largest size: the largest
  // message they hold and why (RDMA: a device's memory-region limit). The driver leaves the
  // larger sizes out and says so; nothing when every size fits.
  struct size_limit {
    std::uint64_t largest = 0;
    std::string why;
  };
  virtual std::optional<size_limit> message_limit() const { return std::nullopt; }
  // Called before the session ends a point: the messages this side moved since prepare(),
  // all complete, when the passive side counts the same messages as they arrive (RDMA);
  // point_end carries it (point_control::sent_messages). nullopt: nothing to count against.
  virtual std::optional<std::uint64_t> sent_messages() const { return std::nullopt; }
  // After finish(): what this point met beside its samples, for the point's extra (RDMA: the
  // asynchronous events read during it, the port's line rate when it changed). Empty: nothing.
  virtual nlohmann::json point_facts() const { return nlohmann::json::object(); }
  // Bandwidth as iperf3 -P measures it: a transport whose streams run for the whole point and
  // whose samples last `point_spec::seconds`, counting the bytes every stream delivered, says
  // so here; after each run_sample() last_sample() holds what it counted.
  virtual bool counted_samples() const { return false; }
  struct counted_sample {
    double seconds = 0;                       // the window, on the receiver's clock
    std::vector<std::uint64_t> stream_bytes;  // per stream, received in the window (both ways)
    double bytes_per_second = 0;              // all streams (and both ways for bidir)
  };
  virtual counted_sample last_sample() const { return {}; }
};

class passive_endpoint {
 public:
  virtual ~passive_endpoint() = default;
  // The server's view of the path (its interface, device ...), sent to the client.
  virtual nlohmann::json describe() const = 0;
  virtual void prepare(const point_spec& spec) = 0;
  // Serves samples until `control` says the point is over; returns this side's totals since
  // prepare(). Throws when the active side vanished (EOF, reset, or io_timeout of silence).
  virtual point_totals serve(point_control& control) = 0;
};

// How a transport is built on each side. A transport unusable on this build or host has
// `unavailable` set to the reason ("built without libibverbs"): the server answers a case
// request for it with that reason and the client skips the case with it.
struct transport_entry {
  std::string name;  // "tcp", "rdma"
  std::function<std::unique_ptr<active_endpoint>(const endpoint_setup&)> make_active;
  std::function<std::unique_ptr<passive_endpoint>(const endpoint_setup&)> make_passive;
  std::string unavailable;
};

// The transports a process can serve or use, by name. `gpubench serve` fills one with every
// family's entry, so one server hosts TCP and RDMA sessions.
class transport_table {
 public:
  // Throws std::logic_error on a duplicate name.
  void add(transport_entry entry);
  const transport_entry* find(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::map<std::string, transport_entry> m_entries;
};

}  // namespace gpubench::transports
