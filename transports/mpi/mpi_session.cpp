#include "transports/mpi/mpi_session.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gpubench::transports::mpi {

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  if (MPI_Get_library_version(text, &len) != MPI_SUCCESS) return "";
  std::string v(text, static_cast<std::size_t>(len));
  const auto nl = v.find_first_of("\n,");
  if (nl != std::string::npos) v.resize(nl);
  return v;
}

session::session() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    int provided = 0;
    const int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    if (rc != MPI_SUCCESS)
      throw std::runtime_error("MPI_Init_thread failed (MPI error " + std::to_string(rc) + ")");
    m_initialised_here = true;
  }
  check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check(MPI_Comm_rank(MPI_COMM_WORLD, &m_world_rank), "MPI_Comm_rank(WORLD)");
  int world_size = 0;
  check(MPI_Comm_size(MPI_COMM_WORLD, &world_size), "MPI_Comm_size(WORLD)");
  m_layout.world_size = world_size;

  // Nodes are what MPI calls shared-memory domains, never an assumed ranks-per-node.
  MPI_Comm node = MPI_COMM_NULL;
  check(
      MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m_world_rank, MPI_INFO_NULL, &node),
      "MPI_Comm_split_type(SHARED) grouping ranks by node");
  m_node = comm(node);
  m_local_rank = m_node.rank();
  const int local_size = m_node.size();

  // Node index: node leaders (local rank 0) in world-rank order, so node 0 holds rank 0.
  comm leaders = split(MPI_COMM_WORLD, m_local_rank == 0 ? 0 : MPI_UNDEFINED, m_world_rank,
                       "MPI_Comm_split of the node leaders");
  int node_count = 0;
  if (leaders) {
    m_node_index = leaders.rank();
    node_count = leaders.size();
  }
  check(MPI_Bcast(&m_node_index, 1, MPI_INT, 0, m_node.get()), "MPI_Bcast of the node index");
  check(MPI_Bcast(&node_count, 1, MPI_INT, 0, m_node.get()), "MPI_Bcast of the node count");

  // Every rank learns every node's size and name (the leaders' answer).
  std::vector<int> per_rank_node(static_cast<std::size_t>(world_size));
  check(MPI_Allgather(&m_node_index, 1, MPI_INT, per_rank_node.data(), 1, MPI_INT, MPI_COMM_WORLD),
        "MPI_Allgather of node indices");
  m_layout.ranks_per_node.assign(static_cast<std::size_t>(node_count), 0);
  for (int n : per_rank_node)
    m_layout.ranks_per_node.at(static_cast<std::size_t>(n))++;
  (void)local_size;
  m_rank_node = per_rank_node;

  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  check(MPI_Get_processor_name(name, &len), "MPI_Get_processor_name");
  std::vector<char> names(static_cast<std::size_t>(world_size) * MPI_MAX_PROCESSOR_NAME);
  check(MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME,
                      MPI_CHAR, MPI_COMM_WORLD),
        "MPI_Allgather of host names");
  m_layout.hosts.assign(static_cast<std::size_t>(node_count), "");
  for (int r = world_size - 1; r >= 0; --r) {
    const char* n = names.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME;
    m_layout.hosts.at(static_cast<std::size_t>(per_rank_node[static_cast<std::size_t>(r)])) = n;
  }
}

session::~session() {
  m_node = comm();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (m_initialised_here && !finalized) MPI_Finalize();
}

comm session::first_nodes(int nodes) const {
  return split(MPI_COMM_WORLD, m_node_index < nodes ? 0 : MPI_UNDEFINED, m_world_rank,
               "MPI_Comm_split of the first " + std::to_string(nodes) + " node(s)");
}

std::vector<int> session::ranks_outside(int nodes) const {
  std::vector<int> out;
  for (std::size_t r = 0; r < m_rank_node.size(); ++r)
    if (m_rank_node[r] >= nodes) out.push_back(static_cast<int>(r));
  return out;
}

void session::world_barrier(const std::function<void()>& poll) const {
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier(WORLD)");
  for (;;) {
    int done = 0;
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test of the world barrier");
    if (done) return;
    if (poll) poll();
    // Idle ranks share cores with measuring ones on small machines: poll gently.
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace gpubench::transports::mpi
