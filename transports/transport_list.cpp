#include "transports/transport_list.hpp"

#include "transports/rdma/rdma_transport.hpp"
#include "transports/tcp/tcp_transport.hpp"

namespace gpubench::transports {

transport_table all_transports() {
  transport_table table;
  table.add(tcp::tcp_transport());
  table.add(rdma::rdma_transport());
  return table;
}

}  // namespace gpubench::transports
