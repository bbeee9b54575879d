//! The edit tools as the editor drives them: the chosen tool and brush, the stroke under way
//! while the mouse button is held, and the undo history. A stroke's dabs go through
//! `edit::ops::dab`, the same code `loam apply` runs, and a stroke becomes one undo step.
//!
//! Not for: widgets (see `ui::tool_panel`, `ui::history`) or GL (the app re-sends changed tiles).

use crate::edit::derived::shadows::{self, Baked};
use crate::edit::ops::{self, Op};
use crate::edit::terrain::liquid::{self, LiquidEdit, LiquidStyle, Surface};
use crate::edit::terrain::plane::Plane;
use crate::edit::terrain::sculpt::Sculpt;
use crate::edit::terrain::seams::{self, Stitched};
pub use crate::edit::tools::{Tool, ToolSettings};
use crate::edit::{History, Stroke};
use crate::model::coords;
use crate::model::{Map, TileCoord};

/// A stroke while the mouse button is held.
struct Active {
    stroke: Stroke,
    op: Op,
    sculpt: Option<Sculpt>,
    liquid: Option<LiquidEdit>,
    last: [f64; 2],
    start: [f64; 3],
    /// Dabs laid so far: each erosion dab runs droplets of its own.
    dabs: u32,
    /// The dabs' centres, where a biome's objects are scattered when the stroke ends.
    centres: Vec<[f64; 2]>,
    /// Textures a biome's rules left out (a chunk would have shown five), for its label.
    dropped: Vec<crate::edit::terrain::rules_ops::Dropped>,
}

/// The editor's editing state: tool settings, the stroke under way, the history.
#[derive(Default)]
pub struct Editing {
    /// What the tool panel set.
    pub settings: ToolSettings,
    /// Undo and redo.
    pub history: History,
    active: Option<Active>,
    /// Chunks a paint stroke could not paint (four layers, none free), for the status bar.
    pub refused: Vec<(TileCoord, usize)>,
    /// The structure new liquid takes: the open map's generation's.
    pub liquid_style: LiquidStyle,
    /// The flatten target kept across strokes while `settings.flatten_lock` is on: the first
    /// stroke's, or the plane a Ctrl+click picked from the ground.
    pub flatten_locked: Option<Sculpt>,
    /// Why the last press started no stroke (a biome that cannot be laid), for the status
    /// line.
    pub refusal: Option<String>,
    /// Biome strokes so far: each scatters with the biome's seed plus this, so strokes differ
    /// and a session repeats.
    biome_strokes: u64,
}

/// Chunks changed by an action, for the app to re-send and mark edited.
pub type Touched = Vec<(TileCoord, usize)>;

impl Editing {
    /// A fresh history with these tool settings (a newly opened map).
    pub fn with_settings(settings: ToolSettings) -> Editing {
        Editing {
            settings,
            ..Editing::default()
        }
    }

    /// True while a stroke is under way.
    pub fn is_stroking(&self) -> bool {
        self.active.is_some()
    }

    /// Starts a stroke at world `at` (x, y, terrain height) and lays its first dab (the ramp
    /// lays its dabs when the drag ends).
    pub fn begin(&mut self, map: &mut Map, at: [f64; 3]) -> Vec<TileCoord> {
        self.refusal = None;
        // A script's strokes run through the script (`app::toolbox::script_tool`).
        if !self.settings.tool.is_brush() || self.settings.tool == Tool::Script {
            return Vec::new();
        }
        if self.settings.tool == Tool::Biome
            && let Err(e) = self.settings.biome.check()
        {
            self.refusal = Some(e);
            return Vec::new();
        }
        let sculpt = match self.settings.tool {
            Tool::Raise => Some(Sculpt::Raise),
            Tool::Lower => Some(Sculpt::Lower),
            Tool::Smooth => Some(Sculpt::Smooth),
            Tool::Noise => Some(Sculpt::Noise {
                seed: self.settings.noise_seed,
                scale: self.settings.noise_scale,
            }),
            Tool::Flatten => Some(self.flatten_target(at)),
            _ => None,
        };
        if matches!(
            self.settings.tool,
            Tool::Paint | Tool::EraseTexture | Tool::SprayTexture
        ) {
            // The quick palette offers the textures last painted with.
            let texture = self.settings.texture.clone();
            self.settings.remember_texture(&texture);
        }
        let s = &self.settings;
        self.refused.clear();
        self.active = Some(Active {
            stroke: Stroke::new(s.tool.name()),
            op: s.op(),
            sculpt,
            liquid: s.liquid_edit(map, at),
            last: [at[0], at[1]],
            start: at,
            dabs: 0,
            centres: Vec::new(),
            dropped: Vec::new(),
        });
        if matches!(s.tool, Tool::Ramp | Tool::River) {
            return Vec::new();
        }
        self.dab(map, [at[0], at[1]])
    }

    /// The flatten target of a stroke starting at `at`: the locked one while the lock is on
    /// and one is kept (in the mode now chosen), else the typed height or the ground's under
    /// the click, level or sloping as set; kept for the next strokes when the lock is on.
    fn flatten_target(&mut self, at: [f64; 3]) -> Sculpt {
        let s = &self.settings;
        let mode = s.flatten_mode;
        if !s.flatten_lock {
            self.flatten_locked = None;
        }
        match self.flatten_locked {
            Some(Sculpt::Flatten { target, .. }) => return Sculpt::Flatten { target, mode },
            Some(Sculpt::Plane { plane, .. }) => return Sculpt::Plane { plane, mode },
            _ => {}
        }
        let height = s.flatten_height.unwrap_or(at[2] as f32);
        let sloping = s.flatten_slope.and_then(|[slope, direction]| {
            Plane::sloping(
                [at[0], at[1], height.into()],
                slope.into(),
                direction.into(),
            )
        });
        let target = match sloping {
            Some(plane) => Sculpt::Plane { plane, mode },
            None => Sculpt::Flatten {
                target: height,
                mode,
            },
        };
        if s.flatten_lock {
            self.flatten_locked = Some(target);
        }
        target
    }

    /// Ctrl+click with flatten: takes the ground's plane under world (`x`, `y`) (through
    /// three points a unit around it) as the flatten target, its slope and height into the
    /// settings, and locks it. False when the ground there is not loaded.
    pub fn pick_flatten_plane(&mut self, map: &Map, x: f64, y: f64) -> bool {
        let r = coords::UNIT_SIZE;
        let around = [
            [x + r, y],
            [x - r / 2.0, y + r * 0.866],
            [x - r / 2.0, y - r * 0.866],
        ];
        let mut points = [[0.0; 3]; 3];
        for (p, [px, py]) in points.iter_mut().zip(around) {
            let Some(h) = crate::edit::lattice::height_at(map, px, py) else {
                return false;
            };
            *p = [px, py, h.into()];
        }
        let (Some(plane), Some(h)) = (
            Plane::through(points),
            crate::edit::lattice::height_at(map, x, y),
        ) else {
            return false;
        };
        let s = &mut self.settings;
        s.flatten_height = Some(h);
        s.flatten_slope = Some([plane.slope() as f32, plane.direction() as f32]);
        s.flatten_lock = true;
        self.flatten_locked = Some(Sculpt::Plane {
            plane,
            mode: s.flatten_mode,
        });
        true
    }

    /// The locked flatten target described for the panel ("12.50 yd", "plane 8.0° toward
    /// 135°"), while there is one.
    pub fn describe_flatten_lock(&self) -> Option<String> {
        if !self.settings.flatten_lock {
            return None;
        }
        match self.flatten_locked? {
            Sculpt::Flatten { target, .. } => Some(format!("{target:.2} yd")),
            Sculpt::Plane { plane, .. } => Some(format!(
                "plane {:.1}° toward {:.0}°",
                plane.slope(),
                plane.direction()
            )),
            _ => None,
        }
    }

    /// Continues the stroke to world `at`: dabs spaced along the way. Returns the tiles to redraw.
    pub fn drag(&mut self, map: &mut Map, at: [f64; 3]) -> Vec<TileCoord> {
        let Some(a) = &mut self.active else {
            return Vec::new();
        };
        if matches!(self.settings.tool, Tool::Ramp | Tool::River) {
            return Vec::new();
        }
        let points = self.settings.brush.dabs_between(a.last, [at[0], at[1]]);
        a.last = [at[0], at[1]];
        let mut tiles: Vec<TileCoord> = Vec::new();
        for p in points {
            for t in self.dab(map, p) {
                if !tiles.contains(&t) {
                    tiles.push(t);
                }
            }
        }
        tiles
    }

    /// One dab; returns the tiles it can have changed, for the app to redraw: those under its
    /// footprint, widened by a chunk for the normals of the vertices around the rim.
    fn dab(&mut self, map: &mut Map, p: [f64; 2]) -> Vec<TileCoord> {
        let Some(a) = &mut self.active else {
            return Vec::new();
        };
        let s = &self.settings;
        match a.liquid {
            Some(edit) => {
                let liquid = (edit, self.liquid_style);
                ops::liquid_dab(map, &a.op, liquid, p, &mut a.stroke)
            }
            None if s.tool == Tool::SwapTexture => crate::edit::terrain::texture_ops::swap_dab(
                map,
                &s.swap_from,
                &s.texture,
                p,
                s.brush.radius,
                &mut a.stroke,
            ),
            None if s.tool == Tool::Erode => {
                crate::edit::terrain::erosion::dab(
                    map,
                    &s.brush,
                    &s.erosion,
                    p,
                    a.dabs,
                    &mut a.stroke,
                );
            }
            None if s.tool == Tool::Biome => {
                let dropped =
                    crate::edit::biome::lay::dab(map, &s.biome, &s.brush, p, a.dabs, &mut a.stroke);
                a.stroke
                    .refused
                    .extend(dropped.iter().map(|d| (d.tile, d.chunk)));
                a.dropped.extend(dropped);
            }
            None if s.tool == Tool::TextureRules => {
                let (_, dropped) = crate::edit::terrain::rules_ops::dab(
                    map,
                    &s.brush,
                    &s.rules,
                    p[0],
                    p[1],
                    &mut a.stroke,
                );
                // Where a chunk would show five textures, the panel says so as for painting.
                a.stroke
                    .refused
                    .extend(dropped.iter().map(|d| (d.tile, d.chunk)));
            }
            None => ops::dab(map, &a.op, a.sculpt, p[0], p[1], &mut a.stroke),
        }
        a.dabs += 1;
        a.centres.push(p);
        let reach = a.op.radius as f64 + coords::CHUNK_SIZE;
        let mut tiles = Vec::new();
        for (dx, dy) in [
            (-reach, -reach),
            (-reach, reach),
            (reach, -reach),
            (reach, reach),
        ] {
            if let Some(t) = TileCoord::containing(p[0] + dx, p[1] + dy)
                && !tiles.contains(&t)
            {
                tiles.push(t);
            }
        }
        tiles
    }

    /// Ends the stroke at world `at` and records it as one undo step; returns the chunks it
    /// changed (none when it changed nothing). `objects` gives placed models' boxes (objects
    /// follow the ground a stroke moves) and, for a biome's palette, new objects' uids.
    pub fn end(
        &mut self,
        map: &mut Map,
        at: Option<[f64; 3]>,
        objects: crate::edit::biome::ObjectSources,
    ) -> Touched {
        let model_box = objects.0;
        let Some(mut a) = self.active.take() else {
            return Vec::new();
        };
        if self.settings.tool == Tool::Ramp
            && let Some(end) = at
        {
            let ramp = Sculpt::Ramp {
                from: a.start,
                to: end,
            };
            let points = self.settings.brush.dabs_along(a.start, end);
            for p in points {
                ops::dab(map, &a.op, Some(ramp), p[0], p[1], &mut a.stroke);
            }
        }
        if self.settings.tool == Tool::River
            && let (
                Some(end),
                Some(LiquidEdit::Add {
                    liquid_type,
                    surface,
                }),
            ) = (at, a.liquid)
        {
            // The surface falls from the height at the press (typed, or under it) to the
            // liquid surface or ground under the release.
            let from = surface.height_at(a.start[0], a.start[1]) as f64;
            let to = liquid::height_under(map, end[0], end[1]).map_or(end[2], f64::from);
            let edit = LiquidEdit::Add {
                liquid_type,
                surface: Surface::Slope {
                    from: [a.start[0], a.start[1], from],
                    to: [end[0], end[1], to],
                },
            };
            let points = self.settings.brush.dabs_along(a.start, end);
            for p in points {
                ops::liquid_dab(map, &a.op, (edit, self.liquid_style), p, &mut a.stroke);
            }
        }
        self.refused = std::mem::take(&mut a.stroke.refused);
        if self.settings.tool == Tool::Biome {
            return self.end_biome(map, a, objects);
        }
        let sculpting = self.settings.tool.sculpts();
        if self.settings.rebake_shadows && sculpting {
            // The chunks the stroke changed cast onto their neighbours too; all go in the
            // stroke's own undo step.
            let changed = a.stroke.touched();
            let stroke = &mut a.stroke;
            shadows::bake_around(map, &changed, self.settings.shadow_sun, |m, t, c| {
                stroke.snapshot(m, t, c)
            });
        }
        match a.stroke.finish(map) {
            Some(mut edit) => {
                if self.settings.objects_follow_ground && sculpting {
                    crate::edit::objects::follow_ground(map, &mut edit, model_box);
                }
                let touched = edit.touched();
                self.history.push(map, edit);
                touched
            }
            None => Vec::new(),
        }
    }

    /// Ends a Biome stroke: its palette scattered over the dabs' circles, joined to the
    /// ground's change as one undo step.
    fn end_biome(
        &mut self,
        map: &mut Map,
        a: Active,
        objects: crate::edit::biome::ObjectSources,
    ) -> Touched {
        let s = &self.settings;
        let seed = s.biome.scatter.seed.wrapping_add(self.biome_strokes);
        self.biome_strokes += 1;
        let ground = a.stroke.finish(map);
        let circles = (&a.centres[..], f64::from(s.brush.radius), seed);
        let edit =
            crate::edit::biome::lay::finish(map, &s.biome, ground, circles, &a.dropped, objects);
        match edit {
            Some(edit) => {
                let touched = edit.touched();
                self.history.push(map, edit);
                touched
            }
            None => Vec::new(),
        }
    }

    /// Stitches the seams of the loaded tiles (`edit::terrain::seams`) as one undo step; returns what it
    /// did and the chunks it changed. Nothing happens while a stroke is under way.
    pub fn stitch_seams(&mut self, map: &mut Map) -> (Stitched, Touched) {
        if self.is_stroking() {
            return (Stitched::default(), Vec::new());
        }
        let (stitched, edit) = seams::stitch_step(map);
        let touched = match edit {
            Some(edit) => {
                let touched = edit.touched();
                self.history.push(map, edit);
                touched
            }
            None => Vec::new(),
        };
        (stitched, touched)
    }

    /// Bakes the shadow maps of every loaded tile (`edit::derived::shadows`) at the settings' sun as one
    /// undo step; returns what it did and the chunks it changed. Nothing happens while a stroke
    /// is under way.
    pub fn bake_shadows(&mut self, map: &mut Map) -> (Baked, Touched) {
        self.bake_shadows_of(map, None, None).0
    }

    /// Bakes the shadow maps of `chunks` (a selection), or of every loaded tile without, at
    /// the settings' sun as one undo step; with `shapes` (the models' triangles by path) and
    /// the setting on, the placed models' shadows are added over the terrain's
    /// (`edit::derived::model_shadows`). Returns what it did and the chunks it changed, and what casting
    /// did. Nothing happens while a stroke is under way.
    pub fn bake_shadows_of(
        &mut self,
        map: &mut Map,
        chunks: Option<&[(TileCoord, usize)]>,
        shapes: Option<crate::edit::derived::model_shadows::ShapeOf<'_>>,
    ) -> (
        (Baked, Touched),
        Option<crate::edit::derived::model_shadows::Cast>,
    ) {
        if self.is_stroking() {
            return ((Baked::default(), Vec::new()), None);
        }
        let mut stroke = Stroke::new("Bake shadows");
        let sun = self.settings.shadow_sun;
        let baked = {
            let snapshot = |m: &Map, t, c| stroke.snapshot(m, t, c);
            match chunks {
                Some(chunks) => shadows::bake_chunks(map, chunks, sun, snapshot),
                None => shadows::bake_map(map, sun, snapshot),
            }
        };
        let cast = shapes
            .filter(|_| self.settings.shadow_models)
            .map(|shapes| cast_models(map, chunks, sun, shapes, &mut stroke));
        let touched = match stroke.finish(map) {
            Some(edit) => {
                let touched = edit.touched();
                self.history.push(map, edit);
                touched
            }
            None => Vec::new(),
        };
        ((baked, touched), cast)
    }

    /// Undoes the last step.
    pub fn undo(&mut self, map: &mut Map) -> Touched {
        self.history.undo(map).unwrap_or_default()
    }

    /// Redoes the next step.
    pub fn redo(&mut self, map: &mut Map) -> Touched {
        self.history.redo(map).unwrap_or_default()
    }

    /// Undoes or redoes until `applied` steps are applied.
    pub fn go_to(&mut self, map: &mut Map, applied: usize) -> Touched {
        let mut touched = Vec::new();
        loop {
            let (_, head) = self.history.labels();
            if head > applied {
                touched.extend(self.undo(map));
            } else if head < applied && self.history.can_redo() {
                touched.extend(self.redo(map));
            } else {
                break;
            }
        }
        touched
    }

    /// The liquid surface height and LiquidType under world (x, y), for the liquid tools'
    /// picker (Ctrl+click).
    pub fn pick_liquid(map: &Map, x: f64, y: f64) -> Option<(f32, u16)> {
        liquid::surface_at(map, x, y)
    }

    /// The area id under world (x, y), for the area tool's picker.
    pub fn pick_area(map: &Map, x: f64, y: f64) -> Option<u32> {
        crate::edit::terrain::cells::pick_area(map, x, y)
    }
}

/// Adds the placed models' shadows to the chunks `chunks` (every loaded chunk without), each
/// remembered in `stroke` before it changes.
fn cast_models(
    map: &mut Map,
    chunks: Option<&[(TileCoord, usize)]>,
    sun: shadows::Sun,
    shapes: crate::edit::derived::model_shadows::ShapeOf<'_>,
    stroke: &mut Stroke,
) -> crate::edit::derived::model_shadows::Cast {
    let tiles: std::collections::BTreeSet<TileCoord> = match chunks {
        Some(c) => c.iter().map(|(t, _)| *t).collect(),
        None => map.tiles.keys().copied().collect(),
    };
    crate::edit::derived::model_shadows::cast_over(map, tiles, sun, shapes, |m, tile, index| {
        let wanted = chunks.is_none_or(|c| c.contains(&(tile, index)));
        if wanted {
            stroke.snapshot(m, tile, index);
        }
        wanted
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scripted_operation_shows_as_its_tool_and_settings() {
        let file = ops::parse(
            r#"{"ops": [{"tool": "noise", "points": [[0, 0]], "radius": 50, "strength": 12, "seed": 3, "scale": 12}]}"#,
        )
        .unwrap();
        let s = ToolSettings::for_op(file.ops[0].brush().unwrap(), ToolSettings::default());
        assert_eq!(
            (s.tool, s.noise_seed, s.noise_scale),
            (Tool::Noise, 3, 12.0)
        );
        assert_eq!((s.brush.radius, s.brush.strength), (50.0, 12.0));
        let erase =
            ops::parse(r#"{"ops": [{"tool": "shade", "points": [[0, 0]], "radius": 5}]}"#).unwrap();
        assert_eq!(
            ToolSettings::for_op(erase.ops[0].brush().unwrap(), ToolSettings::default()).tool,
            Tool::EraseShade
        );
    }
}
