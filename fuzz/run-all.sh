#!/usr/bin/env bash
# Long fuzzing runs: fuzz/run-all.sh MINUTES [TARGET...] builds every target, then runs each
# (or those named) for MINUTES, one at a time at the lowest priority, and prints a Markdown
# table of executions, coverage (cov: edges, ft: features), crash inputs kept and seconds,
# ready for docs/reliability.md. Corpora grow in fuzz/corpus/TARGET (seed them first with
# fuzz/seed.sh); crash inputs land in fuzz/artifacts/TARGET.
set -uo pipefail
cd "$(dirname "$0")/.."
. fuzz/env.sh
minutes=${1:?usage: fuzz/run-all.sh MINUTES [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${FUZZ_TARGETS[@]}")
(cd fuzz && nice -n 19 "${FUZZ_CARGO[@]}" fuzz build) || exit 1
echo "| target | executions | cov | ft | crashes | seconds |"
echo "|---|---:|---:|---:|---:|---:|"
status=0
for t in "${targets[@]}"; do
    line=$(nice -n 19 fuzz/run-one.sh "$t" $((minutes * 60))) || status=1
    read -r name execs cov ft crashes secs <<<"$line"
    echo "| $name | $execs | $cov | $ft | $crashes | $secs |"
done
exit $status
