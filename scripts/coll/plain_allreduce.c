/* The reference for scripts/coll_overhead.sh: a plain MPI_Allreduce timing loop (float32,
 * sum, out-of-place) as a user would write it, printing "bytes busbw_GBps" per size, so
 * gpubench's harness can be compared against no harness at all. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long min = argc > 1 ? atol(argv[1]) : 1 << 20;
  const long max = argc > 2 ? atol(argv[2]) : 4 << 20;
  const int iters = argc > 3 ? atoi(argv[3]) : 20;
  float* send = calloc((size_t)max / 4, 4);
  float* recv = calloc((size_t)max / 4, 4);
  for (long bytes = min; bytes <= max; bytes *= 2) {
    const int count = (int)(bytes / 4);
    for (int i = 0; i < 3; ++i) MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i)
      MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    double t = (MPI_Wtime() - t0) / iters, sum = 0;
    MPI_Allreduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    t = sum / size;
    const double busbw = (double)bytes / t / 1e9 * 2.0 * (size - 1) / size;
    if (rank == 0) printf("%ld %.6f\n", bytes, busbw);
  }
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
