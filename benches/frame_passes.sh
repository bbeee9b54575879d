#!/usr/bin/env bash
# Where a frame's time goes (issue 56): `loam screenshot --measure 30` at 1280x800 under Xvfb
# for the three views of docs/performance.md ("Per pass, before and after the cut"): the
# bundled sample's default view, the forest (the sample with twenty copies of its two models
# and one `scatter` of about 19,500 doodads over its four tiles), and the corpus continent tile.
#
#   bash benches/frame_passes.sh [LOAM_BINARY] [WORK_DIR] [OTHER_LOAM_BINARY] [ROUNDS]
#
# With OTHER_LOAM_BINARY, each view runs with that build first, then with LOAM_BINARY, one
# after the other, ROUNDS times (default 1). Needs xvfb-run. Prints each run's frame line and
# its pass lines. Figures go to docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
loam=${1:-target/release/loam}
work=${2:-$(mktemp -d)}
other=${3:-}
rounds=${4:-1}
root=$PWD
[ -x "$loam" ] || { echo "build first: cargo build --release" >&2; exit 1; }

# The forest: a copy of the sample with Tree02-10 and Boulder02-10 beside Tree01 and
# Boulder01 (copies, so that each is its own model and its own instanced draw).
forest="$work/forest"
if [ ! -f "$forest/Sample.wdt" ]; then
    mkdir -p "$forest"
    cp -r resources/sample/. "$forest/"
    models="$forest/World/Loam/Sample"
    for i in 02 03 04 05 06 07 08 09 10; do
        cp "$models/Tree01.m2" "$models/Tree$i.m2"
        cp "$models/Tree0100.skin" "$models/Tree${i}00.skin"
        cp "$models/Boulder01.m2" "$models/Boulder$i.m2"
        cp "$models/Boulder0100.skin" "$models/Boulder${i}00.skin"
    done
    # Four 380 yd circles at the four tiles' centres (the map's middle is their common
    # corner), density 17.6 a thousand square yards, 2 yd apart.
    python3 - "$work/forest20.json" <<'PY'
import json, sys
models = []
for i in range(1, 11):
    models.append({"model": f"World\\Loam\\Sample\\Tree{i:02d}.m2", "weight": 4, "scale": [0.8, 1.4]})
    models.append({"model": f"World\\Loam\\Sample\\Boulder{i:02d}.m2", "weight": 1, "scale": [0.6, 1.0]})
c = 533.3333 / 2
op = {"tool": "scatter", "points": [[c, c], [c, -c], [-c, c], [-c, -c]], "radius": 380,
      "models": models, "density": 17.6, "spacing": 2, "scale": [1.0, 1.0], "yaw": [0, 360],
      "tilt": 0.3, "seed": 20}
json.dump({"ops": [op]}, open(sys.argv[1], "w"), indent=1)
PY
fi

builds=("$loam")
[ -n "$other" ] && builds=("$other" "$loam")
for round in $(seq "$rounds"); do
    for view in default forest continent; do
        case $view in
            default) args=("$root/resources/sample/Sample.wdt") ;;
            forest) args=("$forest/Sample.wdt" --apply "$work/forest20.json") ;;
            continent) args=("$root/../shared/corpus/wowserhq-format/map/continent4229.adt") ;;
        esac
        for bin in "${builds[@]}"; do
            echo "== round $round, $view, $bin"
            xvfb-run -a -s "-screen 0 1280x800x24" "$bin" screenshot "${args[0]}" \
                "$work/$view.png" --size 1280x800 "${args[@]:1}" --measure 30 2>&1 |
                grep -E '^(frame|pass|cpu)'
        done
    done
done
