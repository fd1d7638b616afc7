#include "benchmarks/collectives/data_check.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "core/units.hpp"

namespace gpubench::benchmarks::collectives {

namespace {

// The first wrong element of this process's ranks, as every member sends it to the others.
struct first_wrong {
  std::int64_t rank = -1;  // -1: none here
  std::uint64_t index = 0;
  double got = 0;
  double want = 0;
};

// Changes element `index` of `buffer` (elements of `type`) to a value the check never
// expects there: its pattern values are 0..16, this one is 1000 more.
void corrupt(std::span<std::byte> buffer, dtype type, std::uint64_t index) {
  const std::size_t e = dtype_size(type);
  if ((index + 1) * e > buffer.size()) return;  // past this size's message: nothing to flip
  std::byte* at = buffer.data() + index * e;
  auto bump = [at](auto v) {
    std::memcpy(&v, at, sizeof v);
    v = static_cast<decltype(v)>(v + 1000);
    std::memcpy(at, &v, sizeof v);
  };
  switch (type) {
    case dtype::float32:
      return bump(float{});
    case dtype::float64:
      return bump(double{});
    case dtype::int32:
      return bump(std::int32_t{});
    case dtype::int64:
      return bump(std::int64_t{});
  }
}

}  // namespace

planted_corruption parse_planted_corruption(const std::string& text) {
  const auto colon = text.find(':');
  auto number = [&](const std::string& part) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument(fmt::format(
          "{}='{}': expected RANK:INDEX, two non-negative integers", corrupt_check_env, text));
    return std::stoull(part);
  };
  if (colon == std::string::npos)
    throw std::invalid_argument(
        fmt::format("{}='{}': expected RANK:INDEX", corrupt_check_env, text));
  planted_corruption p;
  p.rank = static_cast<int>(number(text.substr(0, colon)));
  p.index = number(text.substr(colon + 1));
  return p;
}

std::optional<planted_corruption> planted_corruption_from_env() {
  const char* v = std::getenv(corrupt_check_env);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return parse_planted_corruption(v);
}

void check_data(const collective_op& op, transports::collective_backend& backend,
                transports::process_group& group, const check_request& req) {
  const std::size_t esize = dtype_size(req.type);
  const int ranks = backend.ranks();
  const auto local = backend.local_ranks();
  const auto plant = planted_corruption_from_env();
  std::vector<std::byte> send(req.counts.send * esize), recv(req.counts.recv * esize);
  for (std::size_t i = 0; i < local.size(); ++i) {
    op.fill({req.type, local[i], ranks, req.seed, req.counts, req.in_place}, send, recv);
    backend.write(transports::buffer_role::send, i, send);
    backend.write(transports::buffer_role::recv, i, recv);
  }
  group.barrier();
  backend.run({op.call(), req.counts.call, req.in_place}, 1);
  std::uint64_t wrong = 0;
  first_wrong mine;
  for (std::size_t i = 0; i < local.size(); ++i) {
    backend.read(transports::buffer_role::recv, i, recv);
    if (plant && plant->rank == local[i]) corrupt(recv, req.type, plant->index);
    const mismatches m =
        op.check({req.type, local[i], ranks, req.seed, req.counts, req.in_place}, recv);
    wrong += m.count;
    if (m.count > 0 && mine.rank < 0) mine = {local[i], m.first_index, m.got, m.want};
  }
  const std::uint64_t total = group.sum(wrong);
  const std::uint64_t ranks_wrong = group.sum(wrong > 0 ? 1 : 0);
  if (total == 0) return;
  // Every member learns the first wrong element of the lowest rank that has one.
  const auto all = group.allgather(std::as_bytes(std::span(&mine, 1)));
  first_wrong first;
  for (std::size_t at = 0; at + sizeof(first_wrong) <= all.size(); at += sizeof(first_wrong)) {
    first_wrong w;
    std::memcpy(&w, all.data() + at, sizeof w);
    if (w.rank >= 0 && (first.rank < 0 || w.rank < first.rank)) first = w;
  }
  throw std::runtime_error(fmt::format(
      "data check failed: {} of {} {} ({}) over {} ranks gave {} wrong element(s) on {} "
      "rank(s); first: rank {}, element {} of its receive buffer: got {:g}, expected {:g}; the "
      "measurement is not valid",
      op.label(), req.count, to_string(req.type), core::format_bytes(req.count * esize), ranks,
      total, ranks_wrong, first.rank, first.index, first.got, first.want));
}

}  // namespace gpubench::benchmarks::collectives
