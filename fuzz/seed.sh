#!/usr/bin/env bash
# Builds the seed corpora fuzz/corpus/TARGET/ from ../shared/corpus and from the files
# `loam convert` writes of two corpus maps in every generation (0.5.3, 0.5.5 with prototype
# ADTs, 0.6.0, 1.12, 3.3.5). Usage: fuzz/seed.sh [LOAM_BINARY] (default: target/debug/loam).
# The corpora are generated: fuzz/corpus is gitignored. Seeds are added, never removed, so a
# corpus grown by earlier runs is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
corpus_src=$root/../shared/corpus
out=$root/fuzz/corpus
# The binaries `cargo test` leaves (the loam binary and the example below) when they are there:
# building them with `cargo build` instead would recompile dependencies with another feature
# set (dev-dependencies unify features only for test builds). `loam convert` writes 0.5.5 as a
# monolithic WDT only; the example writes prototype ADTs.
loam=${1:-$root/target/debug/loam}
[ -x "$loam" ] || cargo build --quiet --bin loam
proto055_tiles=$root/target/debug/examples/proto055_tiles
[ -x "$proto055_tiles" ] || cargo build --quiet --example proto055_tiles

seed() { # TARGET FILE...
    local target=$1; shift
    mkdir -p "$out/$target"
    for f in "$@"; do
        # Named by content so the same seed is never stored twice.
        cp "$f" "$out/$target/$(sha1sum "$f" | cut -c1-16)"
    done
}
# A seed made of a prefix byte and a file (targets whose first byte picks a mode).
seed_with_byte() { # TARGET BYTE FILE
    mkdir -p "$out/$1"
    local tmp; tmp=$(mktemp)
    { printf "\\x$2"; cat "$3"; } > "$tmp"
    cp "$tmp" "$out/$1/$(sha1sum "$tmp" | cut -c1-16)"
    rm -f "$tmp"
}

# Loam-written maps in every generation, from a 1.12 and a 3.3.5 corpus map.
written=$(mktemp -d)
trap 'rm -rf "$written"' EXIT
mkdir -p "$written/src112" "$written/src335"
cp "$corpus_src/blizzardry/Azeroth.wdt" "$corpus_src/blizzardry/Azeroth_38_46.adt" "$written/src112/"
cp "$corpus_src/wowserhq-format/map/pvpzone.wdt" "$corpus_src/wowserhq-format/map/pvpzone3430.adt" \
    "$written/src335/"
mv "$written/src335/pvpzone3430.adt" "$written/src335/pvpzone_34_30.adt"
for src in "$written/src112/Azeroth.wdt" "$written/src335/pvpzone.wdt"; do
    for to in 0.5.3 0.5.5 0.6.0 1.12 3.3.5; do
        "$loam" convert --to "$to" "$src" "$written/out-$(basename "$src" .wdt)-$to" >/dev/null 2>&1
    done
    m=$(basename "$src" .wdt)
    "$proto055_tiles" "$written/out-$m-0.5.3/$m.wdt" "$written/out-$m-0.5.5-proto"
done
shopt -s nullglob

v18_adts=("$corpus_src"/*/*.adt "$corpus_src"/*/*/*.adt "$written"/out-*-1.12/*.adt "$written"/out-*-3.3.5/*.adt)
v18_wdts=("$corpus_src"/*/*.wdt "$corpus_src"/*/*/*.wdt "$written"/out-*-1.12/*.wdt "$written"/out-*-3.3.5/*.wdt)
seed adt "${v18_adts[@]}"
seed wdt "${v18_wdts[@]}"
seed adt_060 "$written"/out-*-0.6.0/*.adt
seed wdt_060 "$written"/out-*-0.6.0/*.wdt "${v18_wdts[@]}"
seed wdt_alpha "$written"/out-*-0.5.3/*.wdt "$written"/out-*-0.5.5/*.wdt
seed wdt_alpha "$written"/out-*-0.5.5-proto/*.wdt
seed adt_proto055 "$written"/out-*-0.5.5-proto/*.adt
# `loam convert` writes each map's WDL beside it (with MAHO for 3.3.5).
seed wdl "$written"/out-*/*.wdl

# Chunk-level targets: MCNKs, MCLQ instances and MH2O payloads cut out of the files above.
python3 - "$out" "${v18_adts[@]}" "$written"/out-*-0.6.0/*.adt <<'PY'
import hashlib, os, struct, sys
out, files = sys.argv[1], sys.argv[2:]

def put(target, data):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    with open(os.path.join(out, target, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)

for path in files:
    data = open(path, "rb").read()
    at, n_mcnk = 0, 0
    while at + 8 <= len(data):
        tag, size = data[at:at + 4], struct.unpack_from("<I", data, at + 4)[0]
        payload = data[at + 8:at + 8 + size]
        if tag == b"O2HM":
            put("mh2o", payload)
        if tag == b"KNCM" and "0.6.0" not in path:
            # Every 16th MCNK, once per alpha depth (the first byte picks it).
            if n_mcnk % 16 == 0:
                for depth in range(3):
                    put("mcnk_v18", bytes([depth]) + payload)
            n_mcnk += 1
            flags = struct.unpack_from("<I", payload, 0)[0] if len(payload) >= 4 else 0
            ofs_liquid = struct.unpack_from("<I", payload, 0x60)[0] if len(payload) >= 0x68 else 0
            liquid = (flags >> 2) & 0xF
            if liquid and ofs_liquid + 8 <= len(payload) + 8:
                put("mclq", bytes([liquid]) + payload[ofs_liquid:])
        if tag == b"KNCM" and "0.6.0" in path:
            flags = struct.unpack_from("<I", payload, 0)[0] if len(payload) >= 4 else 0
            ofs_liquid = struct.unpack_from("<I", payload, 0x60)[0] if len(payload) >= 0x68 else 0
            liquid = (flags >> 2) & 0xF
            if liquid and ofs_liquid:
                put("mclq", bytes([liquid | 0x10]) + payload[ofs_liquid:])
        if tag == b"LACM":
            pass
        at += 8 + size
PY

# MCAL: 4-bit maps are any 2048 bytes; seed with a few real ones' worth of bytes.
mkdir -p "$out/mcal" "$out/alpha_rle"
head -c 2048 /dev/zero > "$out/mcal/zeros"
head -c 4096 "$corpus_src/blizzardry/Azeroth_38_46.adt" | tail -c 2048 > "$out/mcal/adt-bytes"
printf '\xff\x00\x7f\x40' > "$out/alpha_rle/runs"

# Images the terrain imports read: the bundled stamps (8-bit grey PNG), and a 16-bit grey, an
# RGB and a float TIFF heightmap written by loam's exporter from the sample.
images=$(mktemp -d)
"$loam" export-images resources/sample/Sample.wdt "$images/png" >/dev/null 2>&1 || { echo "seed: export-images failed" >&2; exit 1; }
"$loam" export-images --heights --float resources/sample/Sample.wdt "$images/tif" >/dev/null 2>&1 || { echo "seed: export-images failed" >&2; exit 1; }
seed image resources/sample/stamps/*.png "$images"/png/Sample_31_31_height.png \
    "$images"/png/Sample_31_31_vcol.png "$images"/tif/Sample_31_31_height.tif
rm -rf "$images"

# Assets.
seed blp "$corpus_src"/*/*.blp "$corpus_src"/*/*/*.blp
seed mdx "$corpus_src"/alpha-mdx/*.mdx
for m2 in "$corpus_src"/blizzardry/Rabbit.m2 "$corpus_src"/wowserhq-format/model/*.m2; do
    skin=$(ls "${m2%.m2}"*.skin | head -1)
    tmp=$(mktemp)
    cat "$m2" "$skin" > "$tmp"
    # The first byte splits model from skin: the split point in 255ths of the rest.
    split=$(( $(stat -c %s "$m2") * 255 / $(stat -c %s "$tmp") ))
    seed_with_byte m2 "$(printf %02x "$split")" "$tmp"
    rm -f "$tmp"
done
for root in "$corpus_src"/blizzardry/trolltent.wmo "$corpus_src"/warcraft-net/WMO/duskwood_lumbermill.wmo \
            "$corpus_src"/warcraft-net/WMO/7du_violethold_trapdoor_transport.wmo; do
    group="${root%.wmo}_000.wmo"
    tmp=$(mktemp)
    cat "$root" "$group" > "$tmp"
    split=$(( $(stat -c %s "$root") * 255 / $(stat -c %s "$tmp") ))
    seed_with_byte wmo "$(printf %02x "$split")" "$tmp"
    rm -f "$tmp"
done
# MPQ: small archives StormLib's smpq writes (v1 to v4; v3 and v4 carry HET and BET tables
# beside the classic ones), holding a map file.
mkdir -p "$out/mpq_lookup"
stage=$(mktemp -d)
mkdir -p "$stage/World/Maps/Azeroth"
cp "$corpus_src/blizzardry/Azeroth.wdt" "$stage/World/Maps/Azeroth/Azeroth.wdt"
printf a > "$stage/a"
for v in 1 2 3 4; do
    (cd "$stage" && smpq -c -q -f -M "$v" "$stage/v$v.mpq" World/Maps/Azeroth/Azeroth.wdt a)
    seed mpq_lookup "$stage/v$v.mpq"
done
rm -rf "$stage"
# DBC: Map.dbc in the 1.12 (42 fields, name at 4) and 3.3.5 (66, name at 5) layouts and a
# 3.3.5 LiquidType.dbc (45 fields, texture at 15), as the client's tables lay them out.
stage=$(mktemp -d)
python3 - "$stage" <<'PY'
import struct, sys
def table(fields, rows):
    strings, records = bytearray(b"\0"), bytearray()
    for values in rows:
        record = [0] * fields
        for field, value in values.items():
            if isinstance(value, str):
                record[field] = len(strings)
                strings += value.encode() + b"\0"
            else:
                record[field] = value
        records += struct.pack(f"<{fields}I", *record)
    head = struct.pack("<4s4I", b"WDBC", len(rows), fields, fields * 4, len(strings))
    return head + records + strings
maps = [{0: 0, 1: "Azeroth", 4: "Eastern Kingdoms", 5: "Eastern Kingdoms"},
        {0: 901, 1: "Custom", 4: "My Map", 5: "My Map"}]
for name, fields in [("map112", 42), ("map335", 66)]:
    open(f"{sys.argv[1]}/{name}.dbc", "wb").write(table(fields, maps))
liquids = [{0: 1, 1: "Water", 15: "XTextures\\river\\lake_a.%d.blp"},
           {0: 2, 1: "Ocean", 15: "XTextures\\ocean\\ocean_h.%d.blp"}, {0: 19, 1: "WMO Magma"}]
open(f"{sys.argv[1]}/liquid335.dbc", "wb").write(table(45, liquids))
PY
seed dbc "$stage"/*.dbc
rm -rf "$stage"

for d in "$out"/*/; do
    printf '%-14s %4d seeds\n' "$(basename "$d")" "$(ls "$d" | wc -l)"
done
