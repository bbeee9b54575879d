//! Which generation a split map's files are: the byte-level facts each tile proves, and one
//! decision per map from its WDT and all its tiles.
//!
//! The 0.6.0, 1.12 and 3.3.5 ADTs share every tag and header position, so the generation is
//! never guessed from what the terrain looks like (a rugged real 3.3.5 tile can look "smoother"
//! read the 0.6.0 way). Only what the bytes prove counts: chunks a generation lacks, the MCLQ
//! instance size, alpha maps only 3.3.5 writes. When nothing proves anything, the common case
//! wins and the decision says so.
//!
//! Not for: decoding (the codecs) or finding files (`disk`).

use std::fmt;

use super::Generation;
use super::chunk::{ChunkIter, tags};
use super::mclq;
use crate::model::chunk::{FLAG_LIQUID_ANY, LAYER_ALPHA_COMPRESSED, LAYER_USE_ALPHA};
use crate::model::map::{MAP_FLAG_BIG_ALPHA, MAP_FLAG_HEIGHT_TEXTURING, MAP_FLAG_VERTEX_COLORS};

/// What one v18-shaped ADT's bytes prove about its generation. Counts are chunks (MCNKs) unless
/// said otherwise.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TileEvidence {
    /// The file has an MH2O chunk (3.3.5).
    pub mh2o: bool,
    /// The file has an MFBO chunk (2.x and later).
    pub mfbo: bool,
    /// The file has an MTXF chunk (3.x).
    pub mtxf: bool,
    /// MCNKs whose header points at vertex colours (MCCV, 3.3.5).
    pub mccv: u32,
    /// MCNKs with a run-length compressed alpha map (3.3.5).
    pub rle_alpha: u32,
    /// MCNKs whose alpha block is sized for 8-bit maps (3.3.5's "big alpha").
    pub big_alpha: u32,
    /// MCNKs whose MCLQ holds 0x2D4-byte instances (0.6.0).
    pub mclq_060: u32,
    /// MCNKs whose MCLQ holds 804-byte instances (1.12 and later).
    pub mclq_v18: u32,
    /// Shared border vertices of neighbouring chunks whose copies meet only when MCVT is read
    /// in 1.12's interleaved order (see [`BorderAgreement`]).
    pub borders_only_v18: u32,
    /// The same, read in 0.6.0's order: 81 outer heights, then 64 inner.
    pub borders_only_060: u32,
}

/// The order in which a tile's MCVT heights are stored, as its chunk borders prove it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VertexOrder {
    /// Rows of 9 outer and 8 inner heights, interleaved (1.12, 3.3.5).
    Interleaved,
    /// 81 outer heights, then 64 inner (0.6.0, as loam writes it).
    OuterFirst,
}

/// How two copies of a border vertex must agree to count as meeting: the seam threshold of
/// `loam check`, so that the float noise other tools leave (always under it) still meets, while
/// heights from the wrong places in a chunk (yards apart on any real terrain) do not.
pub const BORDER_MEET_YARDS: f32 = 0.01;

/// Border vertices that must meet under one order and not the other before a tile proves its
/// order: a tile of 256 chunks shares 4 320, of which a flat or featureless tile meets under both
/// orders (and so proves nothing), and one with torn borders meets under neither.
pub const BORDER_PROOF_MIN: u32 = 256;

/// How many times more border vertices the proving order must meet than the other.
pub const BORDER_PROOF_RATIO: u32 = 10;

/// Neighbouring chunks share their border vertices, so under the right MCVT order the absolute
/// heights (the chunk's base z plus the stored value) of a vertex's copies are equal, and under
/// the wrong one they are heights of other places. Counts, over every shared border vertex of a
/// tile, the copies that meet under one order only.
struct BorderAgreement;

impl BorderAgreement {
    /// Stored index of outer vertex (`row`, `col`) in each order.
    fn index(order: VertexOrder, row: usize, col: usize) -> usize {
        match order {
            VertexOrder::Interleaved => row * 17 + col,
            VertexOrder::OuterFirst => row * 9 + col,
        }
    }

    /// (only interleaved, only outer-first) over the chunks of one tile, each its grid position,
    /// base z and the 145 stored heights.
    fn count(chunks: &[Option<(f32, [f32; 145])>]) -> (u32, u32) {
        let absolute =
            |c: &(f32, [f32; 145]), order, row, col| c.0 + c.1[Self::index(order, row, col)];
        let (mut only_v18, mut only_060) = (0, 0);
        let mut compare = |a: &(f32, [f32; 145]), b: &(f32, [f32; 145]), ra, ca, rb, cb| {
            let meets = |order| {
                (absolute(a, order, ra, ca) - absolute(b, order, rb, cb)).abs() <= BORDER_MEET_YARDS
            };
            match (
                meets(VertexOrder::Interleaved),
                meets(VertexOrder::OuterFirst),
            ) {
                (true, false) => only_v18 += 1,
                (false, true) => only_060 += 1,
                _ => {}
            }
        };
        for y in 0..16 {
            for x in 0..16 {
                let Some(Some(here)) = chunks.get(y * 16 + x) else {
                    continue;
                };
                if let Some(Some(east)) = (x < 15).then(|| chunks.get(y * 16 + x + 1)).flatten() {
                    for r in 0..9 {
                        compare(here, east, r, 8, r, 0);
                    }
                }
                if let Some(Some(south)) = (y < 15).then(|| chunks.get((y + 1) * 16 + x)).flatten()
                {
                    for c in 0..9 {
                        compare(here, south, 8, c, 0, c);
                    }
                }
            }
        }
        (only_v18, only_060)
    }
}

impl TileEvidence {
    /// Reads the facts off a v18-shaped ADT. Unreadable parts prove nothing; the real read
    /// reports them.
    pub fn of(bytes: &[u8]) -> TileEvidence {
        let word = |at: usize| {
            bytes
                .get(at..at.checked_add(4)?)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let float = |at: usize| word(at).map(f32::from_bits);
        let mut e = TileEvidence::default();
        let mut heights: Vec<Option<(f32, [f32; 145])>> = vec![None; 256];
        let mut mcnk_index = 0usize;
        for c in ChunkIter::new(bytes, 0, tags::FILE) {
            let Ok(c) = c else { break };
            match c.tag {
                t if t == tags::MH2O => e.mh2o = true,
                t if t == tags::MFBO => e.mfbo = true,
                t if t == tags::MTXF => e.mtxf = true,
                t if t == tags::MCNK => {
                    let h = c.payload_offset();
                    let mcnk_end = c.offset + 8 + c.payload.len();
                    let field = |rel: usize| word(h + rel).unwrap_or(0);
                    let (flags, ofs_liquid, size_liquid) = (field(0), field(0x60), field(0x64));
                    // Heights for the border count: MCVT where the header points, the chunk's
                    // place from its header (or its order when the header's is out of range).
                    let (ix, iy) = (field(0x04) as usize, field(0x08) as usize);
                    let slot = if ix < 16 && iy < 16 {
                        iy * 16 + ix
                    } else {
                        mcnk_index
                    };
                    mcnk_index += 1;
                    let ofs_height = field(0x14) as usize;
                    let mcvt_at = c.offset.checked_add(ofs_height);
                    if let (Some(at), Some(base), true) = (
                        mcvt_at.filter(|&at| ofs_height >= 8 && at + 8 + 145 * 4 <= mcnk_end),
                        float(h + 0x70),
                        slot < 256,
                    ) && bytes.get(at..at + 4) == Some(tags::MCVT.to_disk().as_slice())
                    {
                        let mut stored = [0f32; 145];
                        for (k, v) in stored.iter_mut().enumerate() {
                            *v = float(at + 8 + k * 4).unwrap_or(0.0);
                        }
                        if base.is_finite() && stored.iter().all(|v| v.is_finite()) {
                            heights[slot] = Some((base, stored));
                        }
                    }
                    let n = (flags & FLAG_LIQUID_ANY).count_ones() as usize;
                    let len = size_liquid.saturating_sub(8) as usize;
                    if n > 0 && ofs_liquid != 0 {
                        if len == n * mclq::INSTANCE_BYTES_060 {
                            e.mclq_060 += 1;
                        } else if len == n * mclq::INSTANCE_BYTES {
                            e.mclq_v18 += 1;
                        }
                    }
                    // MCCV counts only when its offset lands on an MCCV tag inside the chunk:
                    // some writers leave stale offsets behind.
                    let ofs_mccv = field(0x74) as usize;
                    if ofs_mccv >= 8
                        && c.offset
                            .checked_add(ofs_mccv + 4)
                            .is_some_and(|e| e <= mcnk_end)
                        && bytes.get(c.offset + ofs_mccv..c.offset + ofs_mccv + 4)
                            == Some(tags::MCCV.to_disk().as_slice())
                    {
                        e.mccv += 1;
                    }
                    let (n_layers, ofs_layer, size_alpha) =
                        (field(0x0C), field(0x1C) as usize, field(0x28));
                    let mut alpha_layers = 0usize;
                    let mut rle = false;
                    for k in 0..n_layers.min(4) as usize {
                        let Some(flags) = word(c.offset + ofs_layer + 8 + k * 16 + 4) else {
                            break;
                        };
                        rle |= k > 0 && flags & LAYER_ALPHA_COMPRESSED != 0;
                        if k > 0 && flags & LAYER_USE_ALPHA != 0 {
                            alpha_layers += 1;
                        }
                    }
                    if rle {
                        e.rle_alpha += 1;
                    } else if let Some(room) =
                        (size_alpha.saturating_sub(8) as usize).checked_div(alpha_layers)
                        && room >= super::mcal::BYTE_BYTES
                    {
                        e.big_alpha += 1;
                    }
                }
                _ => {}
            }
        }
        (e.borders_only_v18, e.borders_only_060) = BorderAgreement::count(&heights);
        e
    }

    /// The MCVT order this tile's chunk borders prove: the order under which at least
    /// [`BORDER_PROOF_MIN`] shared border vertices meet that do not under the other, and
    /// [`BORDER_PROOF_RATIO`] times as many as the other's. `None` for a flat, featureless or
    /// torn tile.
    pub fn vertex_order(&self) -> Option<VertexOrder> {
        let proves = |this: u32, other: u32| {
            this >= BORDER_PROOF_MIN && this >= other.saturating_mul(BORDER_PROOF_RATIO)
        };
        if proves(self.borders_only_v18, self.borders_only_060) {
            Some(VertexOrder::Interleaved)
        } else if proves(self.borders_only_060, self.borders_only_v18) {
            Some(VertexOrder::OuterFirst)
        } else {
            None
        }
    }

    /// True when anything here exists only after 1.12.
    pub fn after_112(&self) -> bool {
        self.mh2o
            || self.mfbo
            || self.mtxf
            || self.mccv > 0
            || self.rle_alpha > 0
            || self.big_alpha > 0
    }
}

/// The facts of a whole map: its WDT flags and each tile's evidence, added up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapEvidence {
    /// The WDT's MPHD flags, when the map has a WDT.
    pub wdt_flags: Option<u32>,
    /// Tiles looked at.
    pub tiles: u32,
    /// Tiles with MH2O.
    pub mh2o: u32,
    /// Tiles with MFBO.
    pub mfbo: u32,
    /// Tiles with MTXF.
    pub mtxf: u32,
    /// Tiles with MCCV.
    pub mccv: u32,
    /// Tiles with RLE alpha.
    pub rle_alpha: u32,
    /// Tiles with 8-bit alpha blocks.
    pub big_alpha: u32,
    /// Tiles with 0x2D4-byte MCLQ instances.
    pub mclq_060: u32,
    /// Tiles with 804-byte MCLQ instances.
    pub mclq_v18: u32,
    /// Tiles whose chunk borders prove 1.12's interleaved MCVT order.
    pub order_v18: u32,
    /// Tiles whose chunk borders prove 0.6.0's outer-first MCVT order.
    pub order_060: u32,
    /// Tiles not looked at because an earlier one already proved the answer.
    pub skipped: u32,
}

impl MapEvidence {
    /// True when the WDT flags or a tile prove "later than 1.12", which settles the decision.
    pub fn after_112(&self) -> bool {
        !self.after_112_facts().is_empty()
    }

    /// Starts from the WDT's MPHD flags (`None` for a map without a WDT).
    pub fn new(wdt_flags: Option<u32>) -> MapEvidence {
        MapEvidence {
            wdt_flags,
            ..MapEvidence::default()
        }
    }

    /// Adds one tile's facts.
    pub fn add(&mut self, t: &TileEvidence) {
        self.tiles += 1;
        self.mh2o += t.mh2o as u32;
        self.mfbo += t.mfbo as u32;
        self.mtxf += t.mtxf as u32;
        self.mccv += (t.mccv > 0) as u32;
        self.rle_alpha += (t.rle_alpha > 0) as u32;
        self.big_alpha += (t.big_alpha > 0) as u32;
        self.mclq_060 += (t.mclq_060 > 0) as u32;
        self.mclq_v18 += (t.mclq_v18 > 0) as u32;
        match t.vertex_order() {
            Some(VertexOrder::Interleaved) => self.order_v18 += 1,
            Some(VertexOrder::OuterFirst) => self.order_060 += 1,
            None => {}
        }
    }

    /// The WDT flags that only 3.3.5 sets, with their names.
    fn wdt_flags_after_112(&self) -> Vec<&'static str> {
        let f = self.wdt_flags.unwrap_or(0);
        [
            (MAP_FLAG_VERTEX_COLORS, "vertex colours (0x2)"),
            (MAP_FLAG_BIG_ALPHA, "8-bit alpha (0x4)"),
            (MAP_FLAG_HEIGHT_TEXTURING, "height texturing (0x80)"),
        ]
        .into_iter()
        .filter(|(bit, _)| f & bit != 0)
        .map(|(_, name)| name)
        .collect()
    }

    /// The facts that prove "later than 1.12", as phrases ("MH2O in 12 tiles").
    fn after_112_facts(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .wdt_flags_after_112()
            .into_iter()
            .map(|f| format!("WDT flag {f}"))
            .collect();
        for (n, what) in [
            (self.mh2o, "MH2O"),
            (self.mccv, "MCCV"),
            (self.rle_alpha, "RLE alpha"),
            (self.big_alpha, "8-bit alpha"),
            (self.mtxf, "MTXF"),
            (self.mfbo, "MFBO"),
        ] {
            if n > 0 {
                out.push(format!("{what} in {}", tiles(n)));
            }
        }
        out
    }
}

fn tiles(n: u32) -> String {
    if n == 1 {
        "1 tile".to_string()
    } else {
        format!("{n} tiles")
    }
}

/// How a map's generation was decided, for `loam info` and the editor's status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The generation every tile is read as.
    pub generation: Generation,
    /// One line: why ("MH2O in 12 tiles", "no 3.3.5-only chunk: 1.12 assumed").
    pub reason: String,
    /// True when the bytes disagreed, or said nothing, and the common case was taken; the
    /// reason says so and `--from` settles it.
    pub assumed: bool,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.generation, self.reason)
    }
}

/// Decides a split map's generation (0.6.0, 1.12 or 3.3.5) once, from all of its evidence, or
/// takes the user's word (`from`).
pub fn decide(evidence: &MapEvidence, from: Option<Generation>) -> Decision {
    let later = evidence.after_112_facts();
    if let Some(g) = from {
        let mut reason = "as --from / Read as says".to_string();
        let contradicting = match g {
            Generation::V060 | Generation::V112 if !later.is_empty() => later.join(", "),
            Generation::V060 if evidence.mclq_v18 > 0 => {
                format!("804-byte MCLQ in {}", tiles(evidence.mclq_v18))
            }
            Generation::V112 | Generation::V335 if evidence.mclq_060 > 0 => {
                format!("0x2D4-byte MCLQ in {}", tiles(evidence.mclq_060))
            }
            Generation::V060 if evidence.order_v18 > 0 => format!(
                "chunk borders meet in 1.12's height order in {}",
                tiles(evidence.order_v18)
            ),
            Generation::V112 | Generation::V335 if evidence.order_060 > 0 => format!(
                "chunk borders meet in 0.6.0's height order in {}",
                tiles(evidence.order_060)
            ),
            _ => String::new(),
        };
        if !contradicting.is_empty() {
            reason.push_str(&format!("; the bytes disagree: {contradicting}"));
        }
        return Decision {
            generation: g,
            reason,
            assumed: false,
        };
    }
    if evidence.mclq_060 > 0 {
        if later.is_empty() && evidence.mclq_v18 == 0 {
            return Decision {
                generation: Generation::V060,
                reason: format!("0x2D4-byte MCLQ instances in {}", tiles(evidence.mclq_060)),
                assumed: false,
            };
        }
        // Both kinds of proof: the common case wins, and the user is told how to overrule it.
        let mut against = later.clone();
        if evidence.mclq_v18 > 0 {
            against.push(format!("804-byte MCLQ in {}", tiles(evidence.mclq_v18)));
        }
        let generation = if later.is_empty() {
            Generation::V112
        } else {
            Generation::V335
        };
        return Decision {
            generation,
            reason: format!(
                "conflicting evidence: 0x2D4-byte (0.6.0) MCLQ in {} but {}; read as {generation} \
                 (use --from 0.6.0 to read it as 0.6.0)",
                tiles(evidence.mclq_060),
                against.join(", ")
            ),
            assumed: true,
        };
    }
    if !later.is_empty() {
        let mut reason = later.join(", ");
        if evidence.skipped > 0 && evidence.tiles == 0 {
            // The WDT's flag decided before any tile was read.
            reason.push_str(" (no tile needed reading; that settles it)");
        } else if evidence.skipped > 0 {
            reason.push_str(&format!(
                " (of the first {} looked at; that settles it)",
                tiles(evidence.tiles)
            ));
        }
        return Decision {
            generation: Generation::V335,
            reason,
            assumed: false,
        };
    }
    if evidence.order_060 > 0 {
        if evidence.order_v18 == 0 {
            return Decision {
                generation: Generation::V060,
                reason: format!(
                    "chunk borders meet only in 0.6.0's height order (81 outer, then 64 inner) \
                     in {}",
                    tiles(evidence.order_060)
                ),
                assumed: false,
            };
        }
        return Decision {
            generation: Generation::V112,
            reason: format!(
                "conflicting evidence: chunk borders meet in 0.6.0's height order in {} but in \
                 1.12's in {}; read as 1.12 (use --from 0.6.0 to read it as 0.6.0)",
                tiles(evidence.order_060),
                tiles(evidence.order_v18)
            ),
            assumed: true,
        };
    }
    Decision {
        generation: Generation::V112,
        reason: if evidence.tiles == 0 {
            "no tile to look at: 1.12 assumed".to_string()
        } else {
            "no 3.3.5-only chunk: 1.12 assumed".to_string()
        },
        assumed: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any bytes, and a real tile with words overwritten (offsets, sizes, counts): the
        /// sniffer answers and never panics or reads out of bounds.
        #[test]
        fn sniffing_never_panics(
            noise in proptest::collection::vec(any::<u8>(), 0..4096),
            edits in proptest::collection::vec((any::<usize>(), any::<u32>()), 1..12),
        ) {
            let _ = TileEvidence::of(&noise);
            let tile = crate::model::Tile::flat(
                crate::model::TileCoord::new(3, 4).unwrap(),
                "a.blp",
                5.0,
            );
            let mut bytes = crate::format::v18::write_adt(
                &tile,
                crate::format::v18::AlphaTarget { big: false },
            );
            for (at, v) in edits {
                let at = at % (bytes.len() - 4);
                bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            let _ = TileEvidence::of(&bytes);
        }
    }

    fn evidence(f: impl FnOnce(&mut MapEvidence)) -> MapEvidence {
        let mut e = MapEvidence::new(Some(0));
        e.tiles = 10;
        f(&mut e);
        e
    }

    #[test]
    fn proof_decides_and_silence_assumes_112() {
        let d = decide(&evidence(|_| {}), None);
        assert_eq!(d.generation, Generation::V112);
        assert!(d.assumed && d.reason.contains("1.12 assumed"), "{d}");

        let d = decide(&evidence(|e| e.mh2o = 12), None);
        assert_eq!(d.generation, Generation::V335);
        assert_eq!(d.reason, "MH2O in 12 tiles");

        let d = decide(&evidence(|e| e.mclq_060 = 3), None);
        assert_eq!(d.generation, Generation::V060);
        assert!(!d.assumed);

        let d = decide(&evidence(|e| e.wdt_flags = Some(MAP_FLAG_BIG_ALPHA)), None);
        assert_eq!(d.generation, Generation::V335);
        assert!(d.reason.contains("WDT flag 8-bit alpha"), "{d}");

        // The flag decided before any tile was read: the reason says so, not "the first 0".
        let d = decide(
            &evidence(|e| {
                e.wdt_flags = Some(MAP_FLAG_BIG_ALPHA);
                e.tiles = 0;
                e.skipped = 4;
            }),
            None,
        );
        assert!(
            d.reason
                .ends_with("(no tile needed reading; that settles it)"),
            "{d}"
        );
        let d = decide(
            &evidence(|e| {
                e.mh2o = 1;
                e.tiles = 1;
                e.skipped = 3;
            }),
            None,
        );
        assert!(d.reason.contains("(of the first 1 tile looked at"), "{d}");
    }

    #[test]
    fn conflicts_take_the_common_case_and_say_so() {
        let d = decide(
            &evidence(|e| {
                e.mclq_060 = 1;
                e.mclq_v18 = 4;
            }),
            None,
        );
        assert_eq!(d.generation, Generation::V112);
        assert!(d.assumed && d.reason.contains("conflicting"), "{d}");
        let d = decide(
            &evidence(|e| {
                e.mclq_060 = 1;
                e.mccv = 2;
            }),
            None,
        );
        assert_eq!(d.generation, Generation::V335);
        assert!(d.reason.contains("--from 0.6.0"), "{d}");
    }

    #[test]
    fn the_user_overrules_and_is_told_of_contradictions() {
        let d = decide(&evidence(|e| e.mh2o = 2), Some(Generation::V060));
        assert_eq!(d.generation, Generation::V060);
        assert!(d.reason.contains("disagree: MH2O in 2 tiles"), "{d}");
        let d = decide(&evidence(|_| {}), Some(Generation::V060));
        assert_eq!(d.generation, Generation::V060);
        assert!(!d.reason.contains("disagree"));
    }
}
