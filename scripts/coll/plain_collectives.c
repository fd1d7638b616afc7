/* The reference for scripts/coll_overhead.sh: a plain MPI timing loop of one collective
 * (float32, out of place) as a user would write it, with no harness, timed the way nccl-tests
 * times it: per size a warm-up (a few calls and one untimed run), then RUNS runs of ITERS calls back to back, each
 * after one barrier, timed on every rank and averaged over the ranks (nccl-tests' default,
 * for every collective, broadcast included); it prints "bytes busbw_GBps run1 run2 ..." per
 * size: the median of the runs, then each run's busbw in the order they ran. The sizes and bus factors follow nccl-tests' conventions
 * (doc/PERFORMANCE.md), written here on their own: the message is the whole buffer for
 * allreduce, broadcast and send/recv, the gathered (all-gather) or reduced (reduce-scatter)
 * buffer of n blocks, and one rank's whole send buffer for all-to-all.
 * Usage: plain_collectives OP MIN MAX [ITERS [RUNS [FACTOR]]] (20, 5, 2), OP one of allreduce
 * allgather reduce_scatter alltoall broadcast sendrecv. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run(const char* op, float* send, float* recv, int count, int rank, int size) {
  const int block = count / size;
  if (!strcmp(op, "allreduce"))
    MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  else if (!strcmp(op, "allgather"))
    MPI_Allgather(send, block, MPI_FLOAT, recv, block, MPI_FLOAT, MPI_COMM_WORLD);
  else if (!strcmp(op, "reduce_scatter"))
    MPI_Reduce_scatter_block(send, recv, block, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  else if (!strcmp(op, "alltoall"))
    MPI_Alltoall(send, block, MPI_FLOAT, recv, block, MPI_FLOAT, MPI_COMM_WORLD);
  else if (!strcmp(op, "broadcast"))
    MPI_Bcast(rank == 0 ? send : recv, count, MPI_FLOAT, 0, MPI_COMM_WORLD);
  else
    MPI_Sendrecv(send, count, MPI_FLOAT, (rank + 1) % size, 1, recv, count, MPI_FLOAT,
                 (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static double factor(const char* op, int n) {
  if (!strcmp(op, "allreduce")) return 2.0 * (n - 1) / n;
  if (!strcmp(op, "broadcast") || !strcmp(op, "sendrecv")) return 1.0;
  return (double)(n - 1) / n;
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* op = argc > 1 ? argv[1] : "allreduce";
  const long min = argc > 2 ? atol(argv[2]) : 1 << 20;
  const long max = argc > 3 ? atol(argv[3]) : 4 << 20;
  const int iters = argc > 4 ? atoi(argv[4]) : 20;
  const int runs = argc > 5 ? atoi(argv[5]) : 5;
  const long step = argc > 6 ? atol(argv[6]) : 2;
  if (min < 4 || max < min || iters < 1 || runs < 1 || runs > 100 || step < 2) {
    if (rank == 0) fprintf(stderr, "plain_collectives: bad arguments\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  float* send = calloc((size_t)max / 4, 4);
  float* recv = calloc((size_t)max / 4, 4);
  double busbw[100];
  for (long bytes = min; bytes <= max; bytes *= step) {
    int count = (int)(bytes / 4);
    if (strcmp(op, "allreduce") && strcmp(op, "broadcast") && strcmp(op, "sendrecv"))
      count = count / size * size; /* n blocks */
    /* Warm-up, untimed: a few calls, then one run of ITERS after a barrier, so the first
     * timed run meets warm connections (TCP's congestion window opened), as gpubench's
     * warm-up samples do; otherwise the first size measures the start-up. */
    for (int i = 0; i < 3; ++i) run(op, send, recv, count, rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters; ++i) run(op, send, recv, count, rank, size);
    for (int r = 0; r < runs; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      for (int i = 0; i < iters; ++i) run(op, send, recv, count, rank, size);
      double t = (MPI_Wtime() - t0) / iters, sum = 0;
      MPI_Allreduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      busbw[r] = (double)count * 4 / (sum / size) / 1e9 * factor(op, size);
    }
    double sorted[100];
    memcpy(sorted, busbw, sizeof(double) * (size_t)runs);
    qsort(sorted, (size_t)runs, sizeof sorted[0], by_value);
    const double median =
        runs % 2 ? sorted[runs / 2] : (sorted[runs / 2 - 1] + sorted[runs / 2]) / 2;
    if (rank == 0) {
      printf("%ld %.6f", (long)count * 4, median);
      for (int r = 0; r < runs; ++r) printf(" %.6f", busbw[r]);
      printf("\n");
    }
  }
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
