#!/usr/bin/env bash
# gpubench's NCCL path on the CPU stand-ins (docs/collectives.md "Tests without a GPU"):
# standin_gpubench (the CLI on the stand-in CUDA runtime) loads the stand-in NCCL through
# GPUBENCH_NCCL_LIBRARY, as gpubench loads libnccl, and runs under mpirun as on a GPU node.
#   nccl_standin_test.sh STANDIN_GPUBENCH STANDIN_NCCL_SO CHECK
# CHECK: ranks2 | ranks4 (every coll.* case, in and out of place, data checked), local (one
# process driving 4 GPUs), visible_one (a per-rank CUDA_VISIBLE_DEVICES), visible_share (each
# rank sees two of four GPUs), exclusive (EXCLUSIVE_PROCESS: gpu.* then coll.*), deadline (an
# operation that never completes), never_join, async_error, corrupt (the fault switches).
set -euo pipefail
gpubench=$1
nccl_so=$2
check=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v mpirun >/dev/null || { echo "SKIP: no mpirun in PATH"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Each rank's CUDA_VISIBLE_DEVICES from STANDIN_VISIBLE ("0,1;0,1;2,3;2,3": rank 0 first).
cat >"$tmp/rank.sh" <<'RANK'
#!/usr/bin/env bash
rank=${OMPI_COMM_WORLD_RANK:-0}
if [[ -n ${STANDIN_VISIBLE:-} ]]; then
  IFS=';' read -ra lists <<<"$STANDIN_VISIBLE"
  export CUDA_VISIBLE_DEVICES=${lists[$rank]}
fi
exec "$@"
RANK
chmod +x "$tmp/rank.sh"

export GPUBENCH_NCCL_LIBRARY=$nccl_so GPUBENCH_STANDIN_GPUS=4
# The NCCL debug logs gpubench keeps for a failed case go with $tmp.
export TMPDIR=$tmp
# NCCL_DEBUG* unset: gpubench captures the stand-in's WARN lines as it captures NCCL's.
unset NCCL_DEBUG NCCL_DEBUG_FILE CUDA_VISIBLE_DEVICES GPUBENCH_STANDIN_NCCL_FAULT

# standin_mpirun NP LIMIT_S NAME ARGS...: gpubench run on NP ranks, small sizes, the result in
# $tmp/NAME.json and the output in $tmp/NAME.txt; returns mpirun's exit code.
standin_mpirun() {
  local np=$1 limit=$2 name=$3 root=()
  shift 3
  [[ $(id -u) -eq 0 ]] && root=(--allow-run-as-root)
  local rc=0
  timeout "$limit" mpirun "${root[@]}" -np "$np" --oversubscribe --mca pml ob1 \
    --mca btl self,vader,tcp --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
    --mca mpi_yield_when_idle 1 -x GPUBENCH_NCCL_LIBRARY -x GPUBENCH_STANDIN_GPUS \
    -x STANDIN_VISIBLE -x GPUBENCH_STANDIN_COMPUTE_MODE -x GPUBENCH_STANDIN_NODE_DIR \
    -x GPUBENCH_STANDIN_NCCL_FAULT -x GPUBENCH_STANDIN_NCCL_INIT_MS -x TMPDIR \
    "$tmp/rank.sh" "$gpubench" run --quiet --out "$tmp/$name.json" "$@" \
    >"$tmp/$name.txt" 2>&1 || rc=$?
  return $rc
}
export STANDIN_VISIBLE="" GPUBENCH_STANDIN_COMPUTE_MODE=default GPUBENCH_STANDIN_NODE_DIR=""
export GPUBENCH_STANDIN_NCCL_FAULT="" GPUBENCH_STANDIN_NCCL_INIT_MS=30000

show() { cat "$tmp/$1.txt"; echo "FAIL: $2"; exit 1; }
coll=(--suite collectives --backend nccl --sizes 1K:4K --place both)

# A fault switch: the one case fails with the message a user needs, within the limit.
expect_fault() {
  local fault=$1 pattern=$2 rc=0
  GPUBENCH_STANDIN_NCCL_FAULT=$fault standin_mpirun 2 120 "$fault" --suite collectives \
    --backend nccl --filter coll.allreduce --place out --sizes 1K:4K --coll-timeout 8 || rc=$?
  [[ $rc -eq 1 ]] || show "$fault" "$fault: mpirun exited $rc, expected 1 (the case failed)"
  python3 "$here/nccl_check.py" "$tmp/$fault.json" --failed "$pattern" --status complete ||
    show "$fault" "$fault: the failure does not say what happened"
}

case $check in
  ranks2 | ranks4)
    np=${check#ranks}
    GPUBENCH_STANDIN_GPUS=$np standin_mpirun "$np" 120 "$check" "${coll[@]}" ||
      show "$check" "mpirun -np $np"
    # allreduce, allgather, broadcast in and out of place; reduce_scatter, alltoall and
    # sendrecv out of place only (their in-place forms are not measured).
    python3 "$here/nccl_check.py" "$tmp/$check.json" --ranks "$np" --cases 9
    ;;
  local)
    # Not launched by MPI: one process, one communicator rank per GPU, initialised in a group.
    "$gpubench" run --quiet --out "$tmp/local.json" "${coll[@]}" >"$tmp/local.txt" 2>&1 ||
      show local "one process over 4 GPUs"
    python3 "$here/nccl_check.py" "$tmp/local.json" --ranks 4 --cases 9
    ;;
  visible_one)
    STANDIN_VISIBLE="1;3" standin_mpirun 2 120 visible_one "${coll[@]}" --filter coll.allreduce ||
      show visible_one "one GPU per rank"
    python3 "$here/nccl_check.py" "$tmp/visible_one.json" --ranks 2 --cases 2
    grep -q '"pci_bus_id": "0000:41:00.0"' "$tmp/visible_one.json" ||
      { grep pci_bus_id "$tmp/visible_one.json"; echo "FAIL: rank 0 not on physical GPU 1"; exit 1; }
    ;;
  visible_share)
    # srun --gpu-bind=closest on a 4-GPU box: each task sees its socket's two GPUs.
    STANDIN_VISIBLE="0,1;0,1;2,3;2,3" standin_mpirun 4 120 visible_share "${coll[@]}" \
      --filter coll.allreduce || show visible_share "two GPUs per task"
    python3 "$here/nccl_check.py" "$tmp/visible_share.json" --ranks 4 --cases 2
    ;;
  exclusive)
    # Every GPU in EXCLUSIVE_PROCESS mode: rank 0 runs the node's gpu.* cases on both GPUs,
    # then each rank takes one GPU for the collective.
    GPUBENCH_STANDIN_GPUS=2 GPUBENCH_STANDIN_COMPUTE_MODE=exclusive_process \
      GPUBENCH_STANDIN_NODE_DIR=$tmp standin_mpirun 2 120 exclusive --suite interconnect \
      --filter 'gpu.h2d|coll.allreduce' --backend nccl --sizes 4K:8K --quick --coll-timeout 20 ||
      show exclusive "EXCLUSIVE_PROCESS: the launch failed (a context held into the collectives?)"
    python3 - "$tmp/exclusive.json" <<'PY' || show exclusive "EXCLUSIVE_PROCESS"
import json, sys
d = json.load(open(sys.argv[1]))
gpu = [c for c in d["results"] if c["benchmark"] == "gpu.h2d"]
assert d["run"]["status"] == "complete", d["run"]["status"]
assert gpu and all(c["status"] == "ok" for c in gpu), [(c["params"], c["status"]) for c in gpu]
PY
    python3 "$here/nccl_check.py" "$tmp/exclusive.json" --ranks 2 --cases 2
    ;;
  deadline)
    # Rank 0's third operation never completes, so rank 1's waits for it too: at three
    # quarters of --coll-timeout 8 the rank whose deadline comes first aborts its communicator,
    # the other sees that abort as NCCL's remote error and aborts too; the case fails with
    # the reason, the job ends.
    start=$(date +%s)
    rc=0
    GPUBENCH_STANDIN_NCCL_FAULT=hang:0:3 standin_mpirun 2 120 deadline --suite collectives \
      --backend nccl --filter coll.allreduce --place out --sizes 1K:4K --coll-timeout 8 || rc=$?
    took=$(($(date +%s) - start))
    [[ $rc -eq 1 ]] || show deadline "mpirun exited $rc, expected 1 (the case failed)"
    ((took < 8 + 10)) || show deadline "the job took ${took} s: not ended at the deadline"
    python3 "$here/nccl_check.py" "$tmp/deadline.json" --status complete \
      --failed 'not complete after 6 s.*communicator aborted|ncclAllReduce #3 on rank 0 of 2: rank 1 aborted the communicator' ||
      show deadline "deadline"
    # The NCCL debug log gpubench kept for the failed case: ncclCommAbort ran on rank 0.
    log=$(python3 -c 'import json,re,sys; r=json.load(open(sys.argv[1]))["results"][0]["reason"]
print(re.search(r"is kept in (\S+)", r).group(1))' "$tmp/deadline.json")
    grep -q "rank 0 nranks 2 cudaDev 0 - Abort COMPLETE" "$log" ||
      { cat "$log"; show deadline "no ncclCommAbort of rank 0's communicator in $log"; }
    ;;
  never_join)
    GPUBENCH_STANDIN_NCCL_INIT_MS=2000 expect_fault never_join:1 \
      'ncclCommInitRank.*rank\(s\) 1 never joined'
    ;;
  async_error)
    expect_fault async_error:0:3 \
      'asynchronous NCCL error, communicator aborted.*asynchronous error in the middle of ncclAllReduce #3'
    ;;
  corrupt)
    expect_fault corrupt:1:1 'data check'
    ;;
  *)
    echo "unknown check $check"
    exit 2
    ;;
esac
echo "ok: $check"
