# Sourced by .ci/fuzz, fuzz/run-all.sh and fuzz/run-one.sh. cargo-fuzz needs nightly `-Z`
# flags; rather than download a nightly toolchain on a fresh CI machine, the installed (stable)
# toolchain runs with RUSTC_BOOTSTRAP=1: its std ships the ASan runtime for x86_64 Linux.
# FUZZ_TOOLCHAIN=nightly uses `cargo +nightly` instead (a separate build in fuzz/target).
# FUZZ_SANITIZER=none builds without AddressSanitizer, into fuzz/target-none: 3-4 times the
# executions per second, for long runs of the decoders that are loam's own safe Rust (ASan only
# checks unsafe code), at the cost of -malloc_limit_mb, which needs ASan's allocator hooks.
# Sets FUZZ_CARGO (the cargo command), FUZZ_BUILD (its `fuzz build` arguments), FUZZ_BIN (where
# target binaries land), FUZZ_TARGETS.
if [ -n "${FUZZ_TOOLCHAIN:-}" ]; then
    FUZZ_CARGO=(cargo "+$FUZZ_TOOLCHAIN")
else
    export RUSTC_BOOTSTRAP=1
    FUZZ_CARGO=(cargo)
fi
FUZZ_TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
if [ -n "${FUZZ_SANITIZER:-}" ]; then
    FUZZ_BUILD=(fuzz build -s "$FUZZ_SANITIZER" --target-dir "target-$FUZZ_SANITIZER")
    FUZZ_BIN=fuzz/target-$FUZZ_SANITIZER/$FUZZ_TRIPLE/release
else
    FUZZ_BUILD=(fuzz build)
    FUZZ_BIN=fuzz/target/$FUZZ_TRIPLE/release
fi
# Every target, terrain codecs first.
FUZZ_TARGETS=(adt wdt adt_060 wdt_060 wdt_alpha adt_proto055 mcnk_v18 mcal alpha_rle mclq mh2o
              wdl mpq_lookup blp image m2 mdx wmo dbc)
