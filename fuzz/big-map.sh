#!/usr/bin/env bash
# Memory bound of the commands that read a whole map (docs/reliability.md, "Limits on input"):
# fuzz/big-map.sh SIDE [LOAM_BINARY] [COMMAND] makes a SIDE×SIDE map of the corpus's largest
# tile (Northrend_37_25.adt, 2.6 MB, 3.3.5) as hard links beside a 3.3.5 WDT whose MAIN lists
# them all, runs COMMAND on it and prints the peak RSS and the wall time. COMMAND is `convert`
# (the default: `loam convert --to 3.3.5`, which needs ~SIDE² × 2.7 MB of free disk for the
# output, removed afterwards), `fix` (`loam fix --seams --uids`, the same output), `apply`
# (`loam apply --to 3.3.5` of a stroke and a new doodad in the middle tile, the same output),
# `info` or `check`.
set -euo pipefail
cd "$(dirname "$0")/.."
side=${1:?usage: fuzz/big-map.sh SIDE [LOAM_BINARY] [convert|fix|apply|info|check]}
loam=${2:-target/debug/loam}
command=${3:-convert}
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
case $command in
    convert) args=(convert --to 3.3.5 "$dir/src/Big.wdt" "$dir/out") ;;
    fix) args=(fix --seams --uids "$dir/src/Big.wdt" "$dir/out") ;;
    apply)
        # The middle tile's centre in world yards (x north, y west; the map's corner is at
        # 32 tiles of 1600/3 yd from the origin).
        centre=$(python3 -c "print(32 * 1600 / 3 - ($side // 2 + 0.5) * 1600 / 3)")
        cat > "$dir/ops.json" <<OPS
{"ops": [
  {"tool": "raise", "points": [[$centre, $centre]], "radius": 40, "strength": 5},
  {"tool": "place", "model": "World\\\\Loam\\\\Rock.m2", "position": [$centre, $centre]}
]}
OPS
        args=(apply "$dir/src/Big.wdt" "$dir/ops.json" --to 3.3.5 "$dir/out") ;;
    info | check) args=("$command" "$dir/src/Big.wdt") ;;
    *) echo "unknown command $command" >&2; exit 2 ;;
esac
# check exits 1: the copies of one tile do not meet at their borders.
/usr/bin/time -f "%M %e" -o "$dir/rss" "$loam" "${args[@]}" >"$dir/log" 2>&1 || true
# time prefixes a line when the command fails; the figures are the last.
read -r rss secs < <(tail -n 1 "$dir/rss")
written=$(ls "$dir/out" | wc -l)
echo "side $side: $((side * side)) tiles of $(stat -c %s "$tile") bytes, loam $command: $written files written, peak RSS $((rss / 1024)) MiB, $secs s"
# A writing command that wrote nothing failed: say why.
case $command in convert | fix | apply) [ "$written" -gt 0 ] || tail -n 5 "$dir/log" >&2 ;; esac
