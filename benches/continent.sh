#!/usr/bin/env bash
# Whole-continent conversion: peak memory and wall time of `loam convert` on the 687-tile
# Azeroth map (the corpus Azeroth.wdt with the corpus tile continent4229.adt copied under every
# name its MAIN lists), in every direction that matters, 0.5.3 included.
#
#   bash benches/continent.sh [LOAM_BINARY] [WORK_DIR] [derived]
#   bash benches/continent.sh LOAM_BINARY WORK_DIR jobs [PREVIOUS_LOAM_BINARY] [ROUNDS]
#
# With `derived`, only the derived-data repairs run over the continent (issue 32): `loam fix
# --shadows`, `--ground-effects` and `--flight-bounds`, each reading and writing all 687 tiles.
#
# With `jobs`, the three continent jobs of issue 56 run, each the previous build's then this
# one's, side by side in ROUNDS rounds (default 2): `loam fix --shadows`, `loam minimap` (wall
# time and milliseconds a tile) and `loam convert --to 0.5.3`.
#
# Needs GNU time (`apt-get install time`) and about 5 GB of disk. Prints one line per run:
# direction, wall seconds, peak resident set in MB. Figures go to docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
loam=${1:-target/release/loam}
work=${2:-$(mktemp -d)}
corpus=../shared/corpus
[ -x "$loam" ] || { echo "build first: cargo build --release" >&2; exit 1; }

src="$work/src"
if [ ! -f "$src/Azeroth.wdt" ]; then
    mkdir -p "$src"
    cp "$corpus/blizzardry/Azeroth.wdt" "$src/"
    # The tiles MAIN lists, read straight from the WDT: MAIN is 4096 entries of 8 bytes after
    # MVER (12 bytes), MPHD (8 + 32) and MAIN's own header (8).
    python3 - "$src/Azeroth.wdt" <<'PY' | while read -r name; do cp "$corpus/wowserhq-format/map/continent4229.adt" "$src/$name"; done
import struct, sys
b = open(sys.argv[1], "rb").read()
for i in range(4096):
    if struct.unpack_from("<I", b, 60 + 8 * i)[0] & 1:
        print(f"Azeroth_{i % 64}_{i // 64}.adt")
PY
fi
echo "tiles: $(ls "$src" | grep -c '\.adt$')"

# `loam fix` over the continent: wall time and peak memory, and the report line it prints.
fix_run() {
    local what=$1; shift
    rm -rf "$work/fix-$what"
    sync
    /usr/bin/time -f "%e %M" -o "$work/time-fix-$what" "$loam" fix "$@" "$src/Azeroth.wdt" \
        "$work/fix-$what" > "$work/fix-$what.log"
    read -r secs kb < "$work/time-fix-$what"
    printf '%-22s %6.2f s  %6d MB  %s\n' "fix $what" "$secs" $((kb / 1024)) \
        "$(grep -v '^wrote' "$work/fix-$what.log" | tail -1)"
    rm -rf "$work/fix-$what"
}
if [ "${3:-}" = jobs ]; then
    builds=("$loam")
    [ -n "${4:-}" ] && builds=("$4" "$loam")
    tiles=$(ls "$src" | grep -c '\.adt$')
    job() {
        local bin=$1 what=$2; shift 2
        rm -rf "$work/job-out"
        sync
        /usr/bin/time -f "%e %M" -o "$work/time-job" "$bin" "$@" "$work/job-out" > /dev/null
        read -r secs kb < "$work/time-job"
        printf '%-10s %-40s %7.2f s  %6d MB  %6.1f ms a tile\n' "$what" "$bin" "$secs" \
            $((kb / 1024)) "$(awk -v s="$secs" -v n="$tiles" 'BEGIN { print s * 1000 / n }')"
        rm -rf "$work/job-out"
    }
    for round in $(seq "${5:-2}"); do
        for bin in "${builds[@]}"; do job "$bin" shadows fix --shadows "$src/Azeroth.wdt"; done
        for bin in "${builds[@]}"; do job "$bin" minimap minimap "$src/Azeroth.wdt"; done
        for bin in "${builds[@]}"; do job "$bin" "->0.5.3" convert --to 0.5.3 "$src/Azeroth.wdt"; done
    done
    exit 0
fi
if [ "${3:-}" = derived ]; then
    fix_run shadows --shadows
    fix_run ground-effects --ground-effects
    fix_run flight-bounds --flight-bounds
    exit 0
fi

run() {
    local what=$1; shift
    rm -rf "$work/out-$what"
    sync
    /usr/bin/time -f "%e %M" -o "$work/time-$what" "$loam" convert "$@" "$work/out-$what" > /dev/null
    read -r secs kb < "$work/time-$what"
    printf '%-22s %6.2f s  %6d MB\n' "$what" "$secs" $((kb / 1024))
}

run "3.3.5->3.3.5" --to 3.3.5 "$src/Azeroth.wdt"
run "3.3.5->1.12" --to 1.12 "$src/Azeroth.wdt"
run "3.3.5->0.5.3" --to 0.5.3 "$src/Azeroth.wdt"
ls -l "$work/out-3.3.5->0.5.3/Azeroth.wdt" | awk '{printf "monolithic WDT: %d MB\n", $5 / 1048576}'
run "0.5.3->3.3.5" --to 3.3.5 "$work/out-3.3.5->0.5.3/Azeroth.wdt"
run "0.5.3->0.5.3" --to 0.5.3 "$work/out-3.3.5->0.5.3/Azeroth.wdt"

# A new 64×64 map (`loam new`, 4096 blank tiles): split 3.3.5 files and a monolithic 0.5.3 WDT.
new_map() {
    local what=$1; shift
    rm -rf "$work/new-$what"
    sync
    /usr/bin/time -f "%e %M" -o "$work/time-new-$what" "$loam" new Big "$@" --tiles 0 0 63 63 "$work/new-$what" > /dev/null
    read -r secs kb < "$work/time-new-$what"
    printf '%-22s %6.2f s  %6d MB  %5d MB written\n' "new 64x64 $what" "$secs" $((kb / 1024)) \
        "$(du -sm "$work/new-$what" | cut -f1)"
    rm -rf "$work/new-$what"
}
new_map 3.3.5 --to 3.3.5
new_map 0.5.3 --to 0.5.3

# The editor on the same maps: `loam screenshot` opens the map as the window does (the tiles
# around the first view are read, the rest would stream in as the camera moves), draws a frame
# under Xvfb and saves it. Peak memory here is what opening a continent costs.
if command -v xvfb-run >/dev/null; then
    shot() {
        local what=$1; shift
        xvfb-run -a -s "-screen 0 1280x800x24" /usr/bin/time -f "%e %M" -o "$work/time-$what" \
            "$loam" screenshot "$@" "$work/$what.png" --size 1280x800 > /dev/null
        read -r secs kb < "$work/time-$what"
        printf '%-22s %6.2f s  %6d MB\n' "$what" "$secs" $((kb / 1024))
    }
    shot "editor-open-3.3.5" "$src/Azeroth.wdt"
    shot "editor-open-0.5.3" "$work/out-3.3.5->0.5.3/Azeroth.wdt"
fi
