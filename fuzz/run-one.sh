#!/usr/bin/env bash
# Runs one built fuzz target for SECONDS on its corpus and prints one line of figures:
#   TARGET EXECUTIONS COV FT CRASHES SECONDS
# fuzz/run-one.sh TARGET SECONDS [extra libFuzzer flags]. A crash's input is kept under
# fuzz/artifacts/TARGET/ and its libFuzzer report under fuzz/logs/TARGET.log; exit status 1.
set -uo pipefail
cd "$(dirname "$0")/.."
. fuzz/env.sh
target=$1; seconds=$2; shift 2
mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target" fuzz/logs
log=fuzz/logs/$target.log
start=$(date +%s)
# -rss_limit_mb/-malloc_limit_mb: a decoder that tries to take more memory than this on inputs
# of at most a few MB is a finding (see docs/reliability.md, "Limits on input").
"$FUZZ_BIN/$target" "fuzz/corpus/$target" -max_total_time="$seconds" -print_final_stats=1 \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=60 \
    -artifact_prefix="fuzz/artifacts/$target/" "$@" >"$log" 2>&1
rc=$?
elapsed=$(( $(date +%s) - start ))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
last=$(grep -E '^#[0-9]+' "$log" | grep -o 'cov: [0-9]* ft: [0-9]*' | tail -1)
cov=$(echo "$last" | awk '{print $2}'); ft=$(echo "$last" | awk '{print $4}')
crashes=$(ls "fuzz/artifacts/$target" | wc -l)
echo "$target ${execs:-0} ${cov:-?} ${ft:-?} $crashes $elapsed"
[ "$rc" -eq 0 ] || exit 1
