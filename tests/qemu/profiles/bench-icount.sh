# Like bench (the same six NVDIMMs), booted with
# -icount shift=0,sleep=off (needs -smp 1, run.sh's default): the guest clock
# advances one nanosecond per guest instruction, so CLOCK_MONOTONIC deltas
# count instructions and repeat across runs, whatever the host load.
BENCH_ICOUNT=1
. "$PROFILES/bench.sh"
