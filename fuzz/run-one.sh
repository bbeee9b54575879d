#!/usr/bin/env bash
# Runs one built fuzz target for SECONDS of its own CPU time on its corpus and prints one line
# of figures:
#   TARGET EXECUTIONS COV FT CRASHES CPU_SECONDS
# fuzz/run-one.sh TARGET SECONDS [extra libFuzzer flags]. A crash's input is kept under
# fuzz/artifacts/TARGET/ and its libFuzzer report under fuzz/logs/TARGET.log; exit status 1.
#
# CPU time, not wall time: "an hour" of fuzzing must be an hour of the fuzzer's work however
# busy the machine is (a run beside builds got a third of a core). The fuzzer runs until its
# CPU time reaches SECONDS (then it is interrupted, and libFuzzer prints its final figures), or
# it stops on its own (-runs, a crash), or 20 × SECONDS of wall time pass.
set -uo pipefail
cd "$(dirname "$0")/.."
. fuzz/env.sh
target=$1; seconds=$2; shift 2
mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target" fuzz/logs
log=fuzz/logs/$target.log
start=$(date +%s)
# -rss_limit_mb/-malloc_limit_mb: a decoder that tries to take more memory than this on inputs
# of at most a few MB is a finding (see docs/reliability.md, "Limits on input").
"$FUZZ_BIN/$target" "fuzz/corpus/$target" -max_total_time="$((seconds * 20))" \
    -print_final_stats=1 -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=60 \
    -artifact_prefix="fuzz/artifacts/$target/" "$@" >"$log" 2>&1 &
pid=$!
ticks=$(getconf CLK_TCK)
# The fuzzer's user + system time so far, in seconds (fields 14 and 15 of /proc/PID/stat).
cpu_of() { awk -v t="$ticks" '{ print int(($14 + $15) / t) }' "/proc/$1/stat" 2>/dev/null; }
interrupted=0
while kill -0 "$pid" 2>/dev/null; do
    sleep 2
    used=$(cpu_of "$pid")
    if [ -n "$used" ] && [ "$used" -ge "$seconds" ]; then
        kill -INT "$pid"
        interrupted=1
        break
    fi
done
wait "$pid"
rc=$?
# The children's CPU time, which is the fuzzer's (the polling's sleeps and awks add
# milliseconds): the second line of `times`, "1m2.5s 0m0.3s". (`times` in a pipe or `$(…)`
# would run in a subshell, which has no children.)
times >"$log.times"
cpu=$(tail -n 1 "$log.times" | awk '{
    split($1, u, /[ms]/); split($2, s, /[ms]/); print int(u[1] * 60 + u[2] + s[1] * 60 + s[2]) }')
rm -f "$log.times"
elapsed=$(( $(date +%s) - start ))
echo "run-one: $target ran $cpu s of CPU in $elapsed s of wall time" >>"$log"
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
last=$(grep -E '^#[0-9]+' "$log" | grep -o 'cov: [0-9]* ft: [0-9]*' | tail -1)
cov=$(echo "$last" | awk '{print $2}'); ft=$(echo "$last" | awk '{print $4}')
crashes=$(ls "fuzz/artifacts/$target" | wc -l)
echo "$target ${execs:-0} ${cov:-?} ${ft:-?} $crashes $cpu"
# An interrupt we sent is the end of a good run (libFuzzer exits 72 on SIGINT).
[ "$rc" -eq 0 ] || { [ "$interrupted" -eq 1 ] && [ "$rc" -eq 72 ]; } || exit 1
