# The coll.allreduce tests' hosts (mpi_netns_lib.sh): 198.18.6.0/24, tbf with a 256 kB burst,
# no test-only node names.
source "$(dirname "${BASH_SOURCE[0]}")/mpi_netns_lib.sh"
MPI_NETNS_NET=198.18.6
MPI_NETNS_TBF="burst 256kb latency 100ms"
