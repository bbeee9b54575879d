#!/usr/bin/env bash
# Memory bound of a streamed whole-map conversion (docs/reliability.md, "Limits on input"):
# fuzz/big-map.sh SIDE [LOAM_BINARY] makes a SIDE×SIDE map of the corpus's largest tile
# (Northrend_37_25.adt, 2.6 MB, 3.3.5) as hard links beside a 3.3.5 WDT whose MAIN lists them
# all, converts it with `loam convert --to 3.3.5` and prints the peak RSS. Needs ~SIDE² × 2.7 MB
# of free disk for the output, which is removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
side=${1:?usage: fuzz/big-map.sh SIDE [LOAM_BINARY]}
loam=${2:-target/debug/loam}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/src" "$dir/out"
python3 - "$dir/src/Big.wdt" "$side" ../shared/corpus/wowserhq-format/map/pvpzone.wdt <<'PY'
import struct, sys
out, side, template = sys.argv[1], int(sys.argv[2]), open(sys.argv[3], "rb").read()
data = bytearray(template)
main = data.index(b"NIAM") + 8
for i in range(4096):
    x, y = i % 64, i // 64
    present = x < side and y < side
    struct.pack_into("<II", data, main + i * 8, 1 if present else 0, 0)
open(out, "wb").write(data)
PY
tile=../shared/corpus/warcraft-net/ADT/Northrend_37_25.adt
for ((y = 0; y < side; y++)); do
    for ((x = 0; x < side; x++)); do
        ln "$tile" "$dir/src/Big_${x}_${y}.adt" 2>/dev/null || cp "$tile" "$dir/src/Big_${x}_${y}.adt"
    done
done
/usr/bin/time -f "%M" -o "$dir/rss" "$loam" convert --to 3.3.5 "$dir/src/Big.wdt" "$dir/out" >/dev/null 2>&1
written=$(ls "$dir/out" | wc -l)
echo "side $side: $((side * side)) tiles of $(stat -c %s "$tile") bytes, $written files written, peak RSS $(( $(cat "$dir/rss") / 1024 )) MiB"
