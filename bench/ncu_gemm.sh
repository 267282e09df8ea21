#!/bin/bash
# Nsight Compute counters of two tilec GEMM packages and of cuBLAS on the same shapes (on the GPU host).
#   OUT=folder bash bench/ncu_gemm.sh COOP.tkp PINGPONG.tkp
# Writes one text file per kernel and shape into $OUT; prints the metrics.
COOP=$1
PINGPONG=$2
: "${OUT:?set OUT to a folder for the outputs}"
export PYTHONPATH=.
ncu --query-metrics 2>/dev/null | grep -iE "gmma|pipe_tensor" | head -20 > $OUT/metrics.txt
M=$(grep -oE "^sm__pipe_tensor_op_gmma_cycles_active|^sm__inst_executed_pipe_tensor_op_gmma" $OUT/metrics.txt | head -2 | sed 's/$/.avg.pct_of_peak_sustained_active/' | paste -sd, -)
BASE="sm__cycles_active.avg,gpc__cycles_elapsed.max,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_gmma_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__inst_executed.sum"
MET="$BASE${M:+,$M}"
echo "metrics: $MET"
for job in "gemm "$COOP" 4096,4096,4096 coop4k" "gemm "$PINGPONG" 4096,4096,4096 pp4k" "gemm "$PINGPONG" 8192,3072,768 pp768" "gemm "$COOP" 8192,3072,768 coop768" "matmul - 4096,4096,4096 cublas4k" "matmul - 8192,3072,768 cublas768"; do
  set -- $job
  if [ "$1" = matmul ]; then K="--launch-skip 3 --launch-count 1"; else K="-k regex:^gemm --launch-count 1"; fi
  timeout 120 ncu --clock-control none $K --metrics "$MET" python bench/profile_kernel.py $1 $2 --mnk $3 --launches 2 > $OUT/$4.txt 2>&1
  echo "== $4"; grep -E "^\s+[a-z]+__|  [a-zA-Z_0-9]+ \(" $OUT/$4.txt | head -20
done
