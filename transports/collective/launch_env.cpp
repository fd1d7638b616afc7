#include "transports/collective/launch_env.hpp"

#include <charconv>
#include <cstdlib>

namespace gpubench::coll {

namespace {

std::optional<int> as_int(const std::optional<std::string>& text) {
  if (!text || text->empty()) return std::nullopt;
  int v = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc{} || end != text->data() + text->size() || v < 0) return std::nullopt;
  return v;
}

}  // namespace

env_lookup process_env() {
  return [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    if (!v) return std::nullopt;
    return std::string(v);
  };
}

launch_env detect_launch() {
  return detect_launch(process_env());
}

launch_env detect_launch(const env_lookup& env) {
  launch_env l;
  // Open MPI's own variables first: they are the most specific.
  const auto ompi_rank = as_int(env("OMPI_COMM_WORLD_RANK"));
  const auto ompi_size = as_int(env("OMPI_COMM_WORLD_SIZE"));
  if (ompi_rank && ompi_size) {
    l = {true, *ompi_rank, *ompi_size, "Open MPI"};
    return l;
  }
  // MPICH's Hydra and srun --mpi=pmi2.
  const auto pmi_rank = as_int(env("PMI_RANK"));
  const auto pmi_size = as_int(env("PMI_SIZE"));
  if (pmi_rank && pmi_size) {
    l = {true, *pmi_rank, *pmi_size, "PMI"};
    return l;
  }
  // srun --mpi=pmix and PRRTE: the rank is known, the size comes from MPI itself.
  const auto pmix_rank = as_int(env("PMIX_RANK"));
  if (pmix_rank) {
    const auto slurm_size = as_int(env("SLURM_NTASKS"));
    l = {true, *pmix_rank, slurm_size.value_or(0), "PMIx"};
    return l;
  }
  return l;
}

}  // namespace gpubench::coll
