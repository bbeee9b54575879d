//! Laying a biome along a stroke: each dab erodes (if the biome erodes) and then textures the
//! ground by the biome's rules; when the stroke ends its palette is scattered over the dabs'
//! circles and the objects join the ground's change as one undo step. The editor's Biome tool
//! lays the dabs as the pointer moves and calls [`finish`] at the release; the `biome`
//! operation and [`apply`] do both at once, so the two lay the same ground and objects.
//!
//! Not for: what a biome holds (`edit::biome`) or the operation's fields (`biome::op`).

use super::Biome;
use crate::edit::history::History;
use crate::edit::objects::scatter_ops::{ObjectBrushOp, ScatterStroke};
use crate::edit::objects::{ModelBox, NewUids};
use crate::edit::outcome::OpResult;
use crate::edit::stroke::Stroke;
use crate::edit::stroke::TerrainEdit;
use crate::edit::terrain::brush::Brush;
use crate::edit::terrain::erosion;
use crate::edit::terrain::rules_ops::{self, Dropped};
use crate::model::Map;

/// Where a biome's objects come from: each model's own box (`None`: a stand-in) and the
/// allocator of new uids, as scattering takes them.
pub type ObjectSources<'a> = (&'a dyn Fn(&str) -> Option<ModelBox>, &'a NewUids<'a>);

/// The history's name for a stroke of `biome`.
pub fn step_name(biome: &Biome) -> String {
    format!("Biome {}", biome.name)
}

/// One dab of `biome` centred on world `p`, numbered `index` in its stroke (each hydraulic dab
/// runs droplets of its own): the erosion, then the rules over the eroded ground, into
/// `stroke`. Returns the chunks where a fifth texture was left out.
pub fn dab(
    map: &mut Map,
    biome: &Biome,
    brush: &Brush,
    p: [f64; 2],
    index: u32,
    stroke: &mut Stroke,
) -> Vec<Dropped> {
    if let Some(e) = &biome.erosion {
        erosion::dab(map, brush, e, p, index, stroke);
    }
    if biome.rules.is_empty() {
        return Vec::new();
    }
    rules_ops::dab(map, brush, &biome.rules, p[0], p[1], stroke).1
}

/// Ends a stroke of `biome` whose dabs were centred on `dabs` (radius `radius` yards): its
/// palette scattered over their circles with `seed`, the objects joined to `ground` (the
/// stroke's finished ground change, already on `map`) as one step named with its chunks and
/// the textures `dropped`. `None` when the stroke changed nothing.
pub fn finish(
    map: &mut Map,
    biome: &Biome,
    ground: Option<TerrainEdit>,
    (dabs, radius, seed): (&[[f64; 2]], f64, u64),
    dropped: &[Dropped],
    (model_box, uids): ObjectSources,
) -> Option<TerrainEdit> {
    let mut objects = None;
    if !biome.palette.is_empty() && !dabs.is_empty() {
        // `Biome::check` has refused an erasing scatter and settings scattering refuses.
        if let ObjectBrushOp::Scatter(op) =
            biome
                .scatter
                .op(&biome.palette, dabs.to_vec(), radius, seed)
            && let Ok(settings) = op.settings()
        {
            let mut scatter = ScatterStroke::new(settings, seed);
            for &p in dabs {
                scatter.dab(map, p, model_box, uids);
            }
            objects = scatter.finish(map).0;
        }
    }
    // One step: the ground's chunks first, then the objects (whose reference lists the chunks'
    // after-state predates), so undo and redo restore each in the right order.
    let mut edit = match (ground, objects) {
        (Some(mut g), Some(o)) => {
            g.objects = o.objects;
            g.bounds.extend(o.bounds);
            g.chunks.extend(o.chunks);
            g
        }
        (g, o) => g.or(o)?,
    };
    let n = edit.chunks.len();
    edit.label = format!(
        "{}, {n} chunk{}",
        step_name(biome),
        if n == 1 { "" } else { "s" }
    );
    if let Some(note) = rules_ops::dropped_note(dropped) {
        edit.label = format!("{}; {note}", edit.label);
    }
    Some(edit)
}

/// The chunks of `dropped`, each once, in order: where painting was refused.
pub fn refused(dropped: &[Dropped]) -> Vec<(crate::model::TileCoord, usize)> {
    let mut refused: Vec<_> = dropped.iter().map(|d| (d.tile, d.chunk)).collect();
    refused.sort_unstable();
    refused.dedup();
    refused
}

/// Lays `biome` along a stroke of `brush` through `points` (world x, y) as one undo step in
/// `history`: the erosion and the rules dab by dab, then the palette scattered over the
/// stroke's circles with the seed `seed`. `model_box` and `uids` as scattering takes them.
pub fn apply(
    map: &mut Map,
    biome: &Biome,
    (brush, points): (&Brush, &[[f64; 2]]),
    seed: u64,
    history: &mut History,
    objects: ObjectSources,
) -> Result<OpResult, String> {
    biome.check()?;
    let dabs = crate::edit::terrain::brush::stroke_dabs(brush, points);
    let mut stroke = Stroke::new(&step_name(biome));
    let mut dropped = Vec::new();
    for (i, &p) in dabs.iter().enumerate() {
        dropped.extend(dab(map, biome, brush, p, i as u32, &mut stroke));
    }
    let ground = stroke.finish(map);
    let radius = f64::from(brush.radius);
    let edit = finish(map, biome, ground, (&dabs, radius, seed), &dropped, objects);
    let refused = refused(&dropped);
    Ok(match edit {
        Some(edit) => OpResult::push(map, edit, history, refused),
        None => OpResult {
            label: step_name(biome),
            chunks: 0,
            refused,
            tiles: Vec::new(),
        },
    })
}
