//! `loam fix`: repairs a map in place of its generation and writes all of it to another folder.
//! Each repair is a flag (`--seams`, `--uids`, `--flight-bounds`, `--shadows`,
//! `--ground-effects`) and a plain function in `edit/`; this only opens, runs the chosen
//! repairs in a fixed order (flight bounds and shadows after the stitching, over the stitched
//! terrain), reports what each changed and saves.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::ExitCode;

use crate::assets::client::AssetSource;
use crate::assets::models::ShapeCache;
use crate::disk::{self, LoamError};
use crate::edit::derived::flight_bounds::{self, Margins};
use crate::edit::derived::shadows::{self, Sun, TileHeights};
use crate::edit::terrain::tile_stitch::{self, BorderStrip};
use crate::edit::{derived::ground_effects, derived::model_shadows, objects::uids, terrain::seams};
use crate::format::Generation;
use crate::model::coords;
use crate::model::{Map, Tile, TileCoord};
use crate::pipeline;
use std::sync::Arc;

/// The repairs chosen on the command line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fixes {
    /// Stitch seams between chunks and tiles (`--seams`).
    pub seams: bool,
    /// Give each object that shares a uniqueId with another a fresh one (`--uids`).
    pub uids: bool,
    /// Bake every chunk's shadow map with this sun (`--shadows [--sun AZ EL]`).
    pub shadows: Option<Sun>,
    /// Work out every chunk's ground-effect texture map again (`--ground-effects`).
    pub ground_effects: bool,
    /// Give 3.3.5 tiles flight bounds that clear their ground (`--flight-bounds`).
    pub flight_bounds: Option<FlightFix>,
    /// With `shadows`: add the shadows the map's models cast, read from here (`--models`).
    pub models: Option<ModelSource>,
}

/// Where `--models` reads the map's models: the map's folder, then the client (`--client`).
#[derive(Clone)]
pub struct ModelSource(pub Arc<ShapeCache>);

impl std::fmt::Debug for ModelSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ModelSource")
    }
}

impl PartialEq for ModelSource {
    fn eq(&self, other: &ModelSource) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl ModelSource {
    /// The models beside the map at `map_path` (its folder and, for a map under
    /// `…/World/Maps/Name/`, the folder above `World`), then in the client in `client`.
    pub fn open(map_path: &Path, client: Option<&Path>) -> Result<ModelSource, LoamError> {
        let client = client
            .map(|dir| super::client::open(dir).map(Arc::new))
            .transpose()?;
        let folder = if map_path.is_dir() {
            map_path.to_path_buf()
        } else {
            map_path.parent().map(Path::to_path_buf).unwrap_or_default()
        };
        let source = AssetSource::new(client, Some(folder));
        Ok(ModelSource(Arc::new(ShapeCache::new(move |p| {
            source.read(p).ok().flatten()
        }))))
    }

    /// A model's triangles.
    fn shape(&self, path: &str) -> Option<model_shadows::Shape> {
        self.0.get(path)
    }
}

/// How `--flight-bounds` sets the planes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlightFix {
    /// Room above and below the ground (`--flight-margin ABOVE BELOW`).
    pub margins: Margins,
    /// Replace existing planes by a fresh fit instead of only widening them
    /// (`--refit-flight-bounds`).
    pub refit: bool,
}

/// The margins of `--flight-margin ABOVE BELOW`, or the default ones without it.
pub fn margins_from_args(args: Option<&[f32]>) -> Result<Margins, LoamError> {
    match args {
        // A negative margin would let the ground through the planes on purpose.
        Some([above, below])
            if above.is_finite() && below.is_finite() && *above >= 0.0 && *below >= 0.0 =>
        {
            Ok(Margins {
                above: *above,
                below: *below,
            })
        }
        Some(_) => Err(LoamError::Usage(
            "--flight-margin takes two numbers of yards, 0 or more: ABOVE BELOW".to_string(),
        )),
        None => Ok(Margins::DEFAULT),
    }
}

/// Refuses `--flight-bounds` for a map of a generation whose files have no MFBO (only 3.3.5
/// writes it), before anything is written: fixing the rest and quietly skipping the asked-for
/// repair would leave the user believing it was done.
fn refuse_flight_bounds(fixes: &Fixes, generation: Generation) -> Result<(), LoamError> {
    if fixes.flight_bounds.is_some() && generation != Generation::V335 {
        return Err(LoamError::Usage(format!(
            "--flight-bounds: {generation} tiles have no flight bounds (MFBO is 3.3.5's); \
             convert the map with `loam convert --to 3.3.5` first"
        )));
    }
    Ok(())
}

/// The sun of `--sun AZ EL`, or the default one without it.
pub fn sun_from_args(args: Option<&[f64]>) -> Result<Sun, LoamError> {
    match args {
        Some([az, el]) => Sun::new(*az, *el).map_err(LoamError::Usage),
        Some(_) => Err(LoamError::Usage(
            "--sun takes two numbers: AZ EL".to_string(),
        )),
        None => Ok(Sun::DEFAULT),
    }
}

impl Fixes {
    /// True when no repair was chosen.
    pub fn is_empty(&self) -> bool {
        *self == Fixes::default()
    }
}

/// Runs the chosen repairs on `map`; returns the report lines: one for the seams, one per
/// renumbered object and a count for the uids.
pub fn apply(map: &mut Map, fixes: &Fixes) -> Vec<String> {
    let mut lines = Vec::new();
    if fixes.seams {
        let s = seams::stitch(map, |_, _, _| {});
        lines.push(seams_line(s.vertices, s.largest, s.chunks.len()));
    }
    if fixes.uids {
        lines.extend(uids_lines(&uids::renumber(map)));
    }
    if let Some(f) = fixes.flight_bounds {
        let mut tally = flight_bounds::Tally::default();
        for tile in map.tiles.values_mut() {
            tally.add(&flight_bounds::update_tile(tile, f.margins, f.refit));
        }
        lines.push(flight_line(f, tally));
    }
    if let Some(sun) = fixes.shadows {
        let baked = shadows::bake_map(map, sun, |_, _, _| {});
        lines.push(shadows_line(sun, &baked));
        if let Some(models) = &fixes.models {
            lines.extend(cast_models(map, sun, models));
        }
    }
    if fixes.ground_effects {
        let (mut chunks, mut changed) = (0, 0);
        for tile in map.tiles.values_mut() {
            let (c, k) = refresh_ground_effects(tile);
            chunks += c;
            changed += k;
        }
        lines.push(ground_effects_line(chunks, changed));
    }
    lines
}

/// Adds the models' shadows to every tile of `map` (over its terrain bake); the report lines.
fn cast_models(map: &mut Map, sun: Sun, models: &ModelSource) -> Vec<String> {
    let tiles: Vec<TileCoord> = map.tiles.keys().copied().collect();
    let cast = model_shadows::cast_over(map, tiles, sun, &|p| models.shape(p), |_, _, _| true);
    models_lines(&cast)
}

/// Adds the shadows of the objects of `tile` and its neighbours (`casters`, by tile) to a tile
/// fixed on its own (a streamed fix): corners are carried onto this tile's ground, and past its
/// edge onto the nearest ground it has.
fn cast_onto_lone_tile(
    tile: &mut Tile,
    casters: &BTreeMap<TileCoord, Vec<model_shadows::Caster>>,
    sun: Sun,
    models: &ModelSource,
) -> model_shadows::Cast {
    let (x, y) = (tile.coord.x as i32, tile.coord.y as i32);
    let around: Vec<model_shadows::Caster> = casters
        .iter()
        .filter(|(c, _)| (c.x as i32 - x).abs() <= 1 && (c.y as i32 - y).abs() <= 1)
        .flat_map(|(_, k)| k.iter().cloned())
        .collect();
    let mut alone = Map::new("");
    alone.tiles.insert(tile.coord, tile.clone());
    let [nx, ny] = tile.coord.north_west();
    let edge = coords::TILE_SIZE - 0.01;
    let ground = |gx: f64, gy: f64| {
        let (cx, cy) = (gx.clamp(nx - edge, nx), gy.clamp(ny - edge, ny));
        crate::edit::lattice::height_at(&alone, cx, cy)
    };
    model_shadows::cast_onto(tile, &around, sun, &|p| models.shape(p), &ground)
}

/// The report lines of `--models`: the count, then a warning per model that was not found.
fn models_lines(cast: &model_shadows::Cast) -> Vec<String> {
    let mut lines = vec![format!(
        "model shadows: {} object(s) cast, {} cells shadowed more, {} chunk(s) changed, {} model(s) not found",
        cast.objects,
        cast.cells,
        cast.changed.len(),
        cast.missing.len()
    )];
    lines.extend(
        cast.missing
            .iter()
            .take(20)
            .map(|m| format!("  not found (casts no shadow): {m}")),
    );
    lines
}

/// Works out every chunk's ground-effect texture map again; (chunks, chunks changed).
fn refresh_ground_effects(tile: &mut Tile) -> (usize, usize) {
    let changed = tile
        .chunks
        .iter_mut()
        .map(ground_effects::refresh)
        .filter(|&c| c)
        .count();
    (tile.chunks.len(), changed)
}

/// The report line of `--ground-effects`.
fn ground_effects_line(chunks: usize, changed: usize) -> String {
    format!("ground effects: {chunks} chunks' texture maps worked out, {changed} changed")
}

/// The report line of a bake.
fn shadows_line(sun: Sun, baked: &shadows::Baked) -> String {
    format!(
        "shadows: {} chunks baked (sun azimuth {}°, elevation {}°), {} changed, {:.1}% of cells shadowed",
        baked.chunks,
        sun.azimuth,
        sun.elevation,
        baked.changed.len(),
        100.0 * baked.shadowed as f64 / (baked.chunks.max(1) as f64 * 4096.0)
    )
}

/// The report line of `--flight-bounds`.
fn flight_line(f: FlightFix, t: flight_bounds::Tally) -> String {
    format!(
        "flight bounds: {} tiles added, {} {}, {} unchanged (margins {} yd above, {} yd below)",
        t.added,
        t.changed,
        if f.refit { "refitted" } else { "widened" },
        t.unchanged,
        f.margins.above,
        f.margins.below
    )
}

/// The report line of a stitch.
fn seams_line(vertices: usize, largest: f32, chunks: usize) -> String {
    format!(
        "seams: {vertices} vertices changed, largest change {largest:.4} yd, {chunks} chunks rewritten"
    )
}

/// The report lines of a renumbering: one per object, then the count.
fn uids_lines(changes: &[uids::Renumbered]) -> Vec<String> {
    let mut lines: Vec<String> = changes.iter().map(|c| c.to_string()).collect();
    lines.push(format!(
        "uids: {} object(s) given a new uniqueId",
        changes.len()
    ));
    lines
}

/// Runs `loam fix [--seams] [--uids] MAP OUT`: a map with a WDT (or a folder of tiles, or a
/// 0.5.x WDT) tile by tile ([`fix_streamed`]), a lone tile whole.
pub fn run(
    map_path: &Path,
    out: &Path,
    fixes: &Fixes,
    from: Option<Generation>,
) -> Result<ExitCode, LoamError> {
    if fixes.is_empty() {
        return Err(LoamError::Usage(
            "choose what to fix: --seams, --uids, --shadows, --flight-bounds, --ground-effects, or several"
                .to_string(),
        ));
    }
    if out.exists() && !out.is_dir() {
        return Err(LoamError::Usage(format!(
            "{} exists and is not a folder",
            out.display()
        )));
    }
    match pipeline::source::open_source_with(map_path, from, true)? {
        Some(source) => fix_streamed(source, out, fixes),
        None => fix_whole(map_path, out, fixes, from),
    }
}

fn warn_missing(missing: usize) {
    if missing > 0 {
        eprintln!(
            "warning: {missing} tile(s) listed in MAIN are missing; their borders are not fixed"
        );
    }
}

fn warn_unread(fixes: &Fixes, failed: usize) {
    if fixes.uids && failed > 0 {
        // Their records are unknown, so a fresh uid could repeat one of theirs.
        eprintln!(
            "warning: {failed} tile(s) cannot be read; their uniqueIds are not renumbered or avoided"
        );
    }
}

/// Fixes a map opened whole (a lone tile, a 0.5.5 map with prototype ADTs).
fn fix_whole(
    map_path: &Path,
    out: &Path,
    fixes: &Fixes,
    from: Option<Generation>,
) -> Result<ExitCode, LoamError> {
    let mut opened = pipeline::open_map_as(map_path, from)?;
    refuse_flight_bounds(fixes, opened.generation)?;
    warn_missing(opened.missing_tiles.len());
    warn_unread(fixes, opened.failed.len());
    for line in apply(&mut opened.map, fixes) {
        println!("{line}");
    }
    // The whole map, so that OUT is a complete map folder whatever was changed.
    let mut files =
        pipeline::encode_map(&opened.map, opened.generation, opened.writes_wdt(), None)?;
    if let (Some(name), [only]) = (&opened.lone_tile_file, files.as_mut_slice()) {
        only.name = name.clone();
    }
    disk::write_files(out, &files, |_| {})?;
    println!(
        "wrote {} file(s) ({}) to {}",
        files.len(),
        opened.generation,
        out.display()
    );
    // Tiles that could not be read are not written; say which, and exit 1.
    Ok(super::convert::report_unreadable(
        &opened.map.name,
        &opened.failed,
    ))
}

/// What the first pass of a streamed fix keeps of each tile.
struct Surveyed {
    /// Each tile's border strip, for its neighbours' stitching.
    strips: BTreeMap<TileCoord, BorderStrip>,
    /// uniqueId clashes, found as the tiles came in row order.
    clashes: uids::ClashFinder,
    /// Every uid the map's records use.
    used: BTreeSet<u32>,
    /// Each tile's heights, for its neighbours' shadows.
    heights: BTreeMap<TileCoord, TileHeights>,
    /// Each tile's objects, for the shadows they cast into their neighbours (`--models`).
    casters: BTreeMap<TileCoord, Vec<model_shadows::Caster>>,
}

/// Fixes a map tile by tile, in two passes over its files, so that a 64×64 map is fixed in the
/// memory of a few tiles plus ~35 KB a tile: the first reads each tile for its border strip
/// and uniqueIds, the second reads it again, stitches it against its neighbours' strips
/// (`edit::terrain::tile_stitch`), gives its clashing records their new uids and writes it
/// (`pipeline::stream::write_map`, in the map's own generation). The result is the same as fixing
/// the map whole (`tests/fix_streamed.rs`).
fn fix_streamed(
    source: pipeline::source::OpenedSource,
    out: &Path,
    fixes: &Fixes,
) -> Result<ExitCode, LoamError> {
    let generation = source.decision.generation;
    refuse_flight_bounds(fixes, generation)?;
    let mut survey = Surveyed {
        strips: BTreeMap::new(),
        clashes: uids::ClashFinder::default(),
        used: source
            .header
            .global_wmo
            .iter()
            .map(|g| g.placement.unique_id)
            .collect(),
        heights: BTreeMap::new(),
        casters: BTreeMap::new(),
    };
    let failed = source.visit_tiles(
        |t| {
            let strip = fixes.seams.then(|| BorderStrip::of(&t));
            let listings = if fixes.uids {
                uids::tile_listings(&t)
            } else {
                Vec::new()
            };
            let heights = fixes.shadows.map(|_| TileHeights::of(&t));
            let casters = fixes.models.as_ref().map(|_| model_shadows::casters_of(&t));
            (t.coord, strip, listings, heights, casters)
        },
        |(c, strip, listings, heights, casters)| {
            if let Some(k) = casters {
                survey.casters.insert(c, k);
            }
            if let Some(s) = strip {
                survey.strips.insert(c, s);
            }
            if let Some(h) = heights {
                survey.heights.insert(c, h);
            }
            for l in listings {
                survey.used.insert(l.unique_id);
                survey.clashes.add(l);
            }
        },
    );
    let pipeline::source::OpenedSource {
        header,
        tiles,
        source,
        ..
    } = source;
    warn_missing(source.missing.len());
    warn_unread(fixes, failed.len());
    let renumbering = uids::Renumbering::plan(survey.clashes.clashes, survey.used);
    let stitched = std::sync::Mutex::new(tile_stitch::TileStitched::default());
    let baked = std::sync::Mutex::new(shadows::Baked::default());
    let effects = std::sync::Mutex::new((0usize, 0usize));
    let cast = std::sync::Mutex::new(model_shadows::Cast::default());
    let survey_casters = &survey.casters;
    let flown = std::sync::Mutex::new(flight_bounds::Tally::default());
    let strips = &survey.strips;
    let heights = &survey.heights;
    let edit = |tile: &mut Tile| {
        if fixes.seams {
            let s = tile_stitch::stitch_tile(tile, strips);
            if let Ok(mut total) = stitched.lock() {
                total.add(s);
            }
        }
        if fixes.uids {
            renumbering.apply(tile);
        }
        if let Some(f) = fixes.flight_bounds {
            let change = flight_bounds::update_tile(tile, f.margins, f.refit);
            if let Ok(mut total) = flown.lock() {
                total.add(&change);
            }
        }
        if let Some(sun) = fixes.shadows {
            // The neighbours' heights are as read: their own stitching, if any, is not seen
            // here (it moves border vertices by float noise, or a torn seam's few yards).
            let b = shadows::bake_lone_tile(tile, heights, sun);
            if let Ok(mut total) = baked.lock() {
                total.add(b);
            }
            if let Some(models) = &fixes.models {
                let c = cast_onto_lone_tile(tile, survey_casters, sun, models);
                if let Ok(mut total) = cast.lock() {
                    total.add(c);
                }
            }
        }
        if fixes.ground_effects {
            let (c, k) = refresh_ground_effects(tile);
            if let Ok(mut total) = effects.lock() {
                total.0 += c;
                total.1 += k;
            }
        }
    };
    let name = header.name.clone();
    let target = pipeline::stream::Target {
        generation,
        folder: out,
        options: &crate::convert::Options::default(),
        all_or_nothing: false,
        edit: Some(&edit),
    };
    let written =
        pipeline::stream::write_map(header, &tiles, None, generation, target, &|_, _| {})?;
    if fixes.seams {
        let s = stitched.into_inner().unwrap_or_default();
        println!("{}", seams_line(s.vertices, s.largest, s.chunks));
    }
    if fixes.uids {
        for line in uids_lines(&renumbering.changes) {
            println!("{line}");
        }
    }
    if let Some(f) = fixes.flight_bounds {
        println!("{}", flight_line(f, flown.into_inner().unwrap_or_default()));
    }
    if let Some(sun) = fixes.shadows {
        let b = baked.into_inner().unwrap_or_default();
        println!("{}", shadows_line(sun, &b));
        if fixes.models.is_some() {
            for line in models_lines(&cast.into_inner().unwrap_or_default()) {
                println!("{line}");
            }
        }
    }
    if fixes.ground_effects {
        let (c, k) = effects.into_inner().unwrap_or_default();
        println!("{}", ground_effects_line(c, k));
    }
    println!(
        "wrote {} file(s) ({generation}) to {}",
        written.files,
        out.display()
    );
    let mut failed = failed;
    failed.extend(written.failed);
    Ok(super::convert::report_unreadable(&name, &failed))
}
