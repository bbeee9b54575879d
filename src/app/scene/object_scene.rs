//! The placed objects of the open map as the 3D view shows them: which models the loaded tiles
//! need (asked of the worker threads once each), the instances built from the map's objects and
//! the models read so far (a WMO's doodad set included), each frame's culled draw list, and
//! what the cursor is over.
//!
//! Not for: GL (`render::objects`), reading files (`app::scene::object_loader`) or editing objects.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use glam::{Mat4, Vec3};

use super::gl_bridge::GlState;
use super::object_loader::{Answer, ModelAnswer, ObjectLoader, PreparedModel};
use crate::assets::textures::ByteSource;
use crate::model::coords::placement_matrix;
use crate::model::{Map, MapObject, ObjectKind, TileCoord};
use crate::render::scene::{
    DrawList, Instance, InstanceKind, InstanceLook, ModelId, ObjectFilter, build_draw_list, pick,
};
use crate::render::texture_store::texture_key;

/// The stand-in box of a doodad whose model is not known: 2 yards wide and tall, standing on
/// the placement point (the record has no extents of its own).
const DOODAD_BOX: (Vec3, Vec3) = (Vec3::new(-1.0, -1.0, 0.0), Vec3::new(1.0, 1.0, 2.0));

/// What is known of one model path.
#[derive(Debug, Clone)]
enum Slot {
    Loading,
    Ready(Arc<PreparedModel>),
    Missing,
    Failed(String),
}

#[derive(Debug, Clone)]
struct ModelEntry {
    id: ModelId,
    /// The path as first named.
    name: String,
    slot: Slot,
}

/// The objects of the open map and the models behind them.
pub struct ObjectScene {
    loader: ObjectLoader,
    objects: Vec<MapObject>,
    /// The loaded tiles the objects were collected from.
    collected_from: Vec<TileCoord>,
    had_global_wmo: bool,
    models: HashMap<String, ModelEntry>,
    next_id: ModelId,
    instances: Vec<Instance>,
    /// The terrain height over each object's placement point when that is above it (the
    /// object's origin is buried): a placeholder's marker sits there, where it can be seen.
    ground_above: Vec<Option<f32>>,
    dirty: bool,
    textures_missing: BTreeMap<String, String>,
}

impl ObjectScene {
    /// Starts the worker threads; `wake` asks egui for a repaint.
    pub fn new(wake: Arc<dyn Fn() + Send + Sync>) -> ObjectScene {
        ObjectScene {
            loader: ObjectLoader::new(wake),
            objects: Vec::new(),
            collected_from: Vec::new(),
            had_global_wmo: false,
            models: HashMap::new(),
            next_id: 1,
            instances: Vec::new(),
            ground_above: Vec::new(),
            dirty: false,
            textures_missing: BTreeMap::new(),
        }
    }

    /// Starts over for a new map or byte source; the caller clears the GPU's models.
    pub fn start(&mut self, source: ByteSource) {
        self.loader.start(source);
        self.objects.clear();
        self.collected_from.clear();
        self.had_global_wmo = false;
        self.models.clear();
        self.instances.clear();
        self.textures_missing.clear();
        self.dirty = false;
    }

    /// Makes the next [`ObjectScene::sync_map`] collect the objects again (an edit or undo
    /// step may have placed, moved or deleted some).
    pub fn invalidate(&mut self) {
        self.collected_from.clear();
    }

    /// Collects the objects again when the loaded tiles changed, and asks for their models.
    pub fn sync_map(&mut self, map: &Map) {
        let tiles: Vec<TileCoord> = map.tiles.keys().copied().collect();
        if tiles == self.collected_from && map.global_wmo.is_some() == self.had_global_wmo {
            return;
        }
        self.collected_from = tiles;
        self.had_global_wmo = map.global_wmo.is_some();
        self.objects = crate::model::objects::collect(map);
        self.ground_above = self
            .objects
            .iter()
            .map(|o| {
                let ground = crate::render::pick::terrain_at(map, o.position[0], o.position[1])?;
                (ground.world[2] > o.position[2]).then_some(ground.world[2] as f32)
            })
            .collect();
        let names: Vec<String> = self
            .objects
            .iter()
            .filter_map(|o| o.model.clone())
            .collect();
        for name in names {
            self.want_model(&name);
        }
        self.dirty = true;
    }

    /// The model entry of a path, asking the workers for it the first time.
    fn want_model(&mut self, name: &str) -> ModelId {
        let key = texture_key(name);
        if let Some(e) = self.models.get(&key) {
            return e.id;
        }
        let id = self.next_id;
        self.next_id += 1;
        self.models.insert(
            key,
            ModelEntry {
                id,
                name: name.to_string(),
                slot: Slot::Loading,
            },
        );
        self.loader.want_model(name);
        id
    }

    /// The id of sky box model `name` once it is read (asking the workers for it the first
    /// time); `None` while it loads or when the client has no such file.
    pub fn skybox_model(&mut self, name: &str) -> Option<ModelId> {
        let id = self.want_model(name);
        let ready = self
            .models
            .get(&texture_key(name))
            .is_some_and(|e| matches!(e.slot, Slot::Ready(_)));
        ready.then_some(id)
    }

    /// Takes in what the workers read: models go to the GPU queue (and their textures and a
    /// WMO's doodads are asked for), textures likewise.
    pub fn poll(&mut self, gl: &mut GlState) {
        for answer in self.loader.poll() {
            match answer {
                Answer::Model(name, a) => {
                    let key = texture_key(&name);
                    let slot = match a {
                        ModelAnswer::Ready(p) => {
                            if let Some(e) = self.models.get(&key) {
                                gl.queue_model(e.id, p.clone());
                            }
                            for t in &p.texture_files {
                                self.loader.want_texture(t);
                            }
                            for d in &p.doodads {
                                self.want_model(&d.model);
                            }
                            Slot::Ready(p)
                        }
                        ModelAnswer::Missing => Slot::Missing,
                        ModelAnswer::Failed(e) => Slot::Failed(e),
                    };
                    if let Some(e) = self.models.get_mut(&key) {
                        e.slot = slot;
                    }
                    self.dirty = true;
                }
                Answer::Texture(name, Ok(image)) => gl.queue_model_texture(name, image),
                Answer::Texture(name, Err(e)) => {
                    self.textures_missing.insert(texture_key(&name), e);
                }
            }
        }
        if self.dirty {
            self.rebuild();
            self.dirty = false;
        }
    }

    /// Builds the instances from the objects and what is known of their models.
    fn rebuild(&mut self) {
        let mut out = Vec::with_capacity(self.objects.len());
        for (i, o) in self.objects.iter().enumerate() {
            let kind = match o.kind {
                ObjectKind::Doodad => InstanceKind::Doodad,
                ObjectKind::Wmo => InstanceKind::Wmo,
            };
            let matrix = placement_matrix(o.position, o.rotation, o.scale).as_mat4();
            let entry = o
                .model
                .as_ref()
                .and_then(|m| self.models.get(&texture_key(m)));
            match entry.map(|e| (e.id, &e.slot)) {
                Some((id, Slot::Ready(p))) => {
                    out.push(Instance::new(
                        i,
                        kind,
                        InstanceLook::Model(id),
                        matrix,
                        p.bounds,
                    ));
                    self.add_wmo_doodads(&mut out, i, o.doodad_set, matrix, p);
                }
                Some((_, Slot::Loading)) => {
                    out.push(Instance::new(
                        i,
                        kind,
                        InstanceLook::Loading,
                        matrix,
                        DOODAD_BOX,
                    ));
                }
                _ => {
                    let p = placeholder(i, o, kind, matrix);
                    // A buried origin's marker rests on the ground above it.
                    let marker = match self.ground_above.get(i).copied().flatten() {
                        Some(z) => Vec3::new(p.origin.x, p.origin.y, z),
                        None => p.origin,
                    };
                    out.push(p.at_origin(marker));
                }
            }
        }
        self.instances = out;
    }

    /// The doodads of a WMO's default set and of the placement's set.
    fn add_wmo_doodads(
        &self,
        out: &mut Vec<Instance>,
        object: usize,
        set: u16,
        wmo_matrix: Mat4,
        wmo: &PreparedModel,
    ) {
        let mut sets = vec![0usize];
        if set != 0 {
            sets.push(set as usize);
        }
        for s in sets {
            let Some(range) = wmo.doodad_sets.get(s) else {
                continue;
            };
            let first = range.first as usize;
            let last = (first + range.count as usize).min(wmo.doodads.len());
            for d in wmo.doodads.get(first..last).unwrap_or(&[]) {
                let matrix = wmo_matrix * d.matrix;
                let entry = self.models.get(&texture_key(&d.model));
                let (look, bounds) = match entry.map(|e| (e.id, &e.slot)) {
                    Some((id, Slot::Ready(p))) => (InstanceLook::Model(id), p.bounds),
                    Some((_, Slot::Loading)) => (InstanceLook::Loading, DOODAD_BOX),
                    _ => (InstanceLook::Missing, DOODAD_BOX),
                };
                out.push(Instance::new(
                    object,
                    InstanceKind::WmoDoodad,
                    look,
                    matrix,
                    bounds,
                ));
            }
        }
    }

    /// This frame's draw list.
    pub fn draw_list(&self, view_projection: Mat4, eye: Vec3, filter: &ObjectFilter) -> DrawList {
        build_draw_list(&self.instances, view_projection, eye, filter)
    }

    /// Outline boxes (unit cube → world) of the selected objects' instances, a WMO's own
    /// doodads left out.
    pub fn selection_boxes(&self, selected: &[(ObjectKind, u32)]) -> Vec<Mat4> {
        if selected.is_empty() {
            return Vec::new();
        }
        self.instances
            .iter()
            .filter(|i| i.kind != InstanceKind::WmoDoodad)
            .filter(|i| {
                self.objects
                    .get(i.object)
                    .is_some_and(|o| selected.contains(&(o.kind, o.unique_id)))
            })
            .map(Instance::box_matrix)
            .collect()
    }

    /// The shown objects whose placement point projects inside the screen rectangle `lo`–`hi`
    /// (normalised device coordinates), for a rubber-band selection.
    pub fn objects_in(
        &self,
        view_projection: Mat4,
        lo: [f32; 2],
        hi: [f32; 2],
        filter: &ObjectFilter,
    ) -> Vec<(ObjectKind, u32)> {
        self.objects
            .iter()
            .filter(|o| match o.kind {
                ObjectKind::Doodad => filter.doodads,
                ObjectKind::Wmo => filter.wmos,
            })
            .filter(|o| {
                let p = glam::DVec3::from(o.position).as_vec3();
                crate::render::gizmo::project(view_projection, p).is_some_and(|q| {
                    (lo[0]..=hi[0]).contains(&q[0]) && (lo[1]..=hi[1]).contains(&q[1])
                })
            })
            .map(|o| (o.kind, o.unique_id))
            .collect()
    }

    /// Object `index` (as [`ObjectScene::pick`] returns it).
    pub fn object(&self, index: usize) -> Option<&MapObject> {
        self.objects.get(index)
    }

    /// The model-space box object edits place a model path by, when its model was read;
    /// `None` while it loads or when it is missing (edits then use a stand-in box).
    pub fn model_box(&self, name: &str) -> Option<([f32; 3], [f32; 3])> {
        match &self.models.get(&texture_key(name))?.slot {
            Slot::Ready(p) => Some(p.placement),
            _ => None,
        }
    }

    /// The object whose box a ray (world origin, direction) meets first, and how far along.
    pub fn pick(&self, origin: Vec3, dir: Vec3, filter: &ObjectFilter) -> Option<(usize, f32)> {
        pick(&self.instances, origin, dir, filter).map(|(i, t)| (self.instances[i].object, t))
    }

    /// What the hover text says about object `index`: its model path, uniqueId and, when it
    /// is drawn as a placeholder, why.
    pub fn describe(&self, index: usize) -> Option<String> {
        let o = self.objects.get(index)?;
        let kind = match o.kind {
            ObjectKind::Doodad => "doodad",
            ObjectKind::Wmo => "WMO",
        };
        let Some(name) = &o.model else {
            return Some(format!(
                "{kind} uid {}: its name index points past the tile's list",
                o.unique_id
            ));
        };
        let state = match self.models.get(&texture_key(name)).map(|e| &e.slot) {
            Some(Slot::Missing) => " (not found)".to_string(),
            Some(Slot::Failed(e)) => format!(" (unreadable: {e})"),
            Some(Slot::Loading) => " (loading)".to_string(),
            _ => String::new(),
        };
        Some(format!("{name}{state}\n{kind} uid {}", o.unique_id))
    }

    /// True when no model or texture asked for is still being read.
    pub fn is_settled(&self) -> bool {
        self.loader.is_settled()
    }

    /// Objects of the loaded tiles (doodads, WMOs).
    pub fn counts(&self) -> (usize, usize) {
        let wmos = self
            .objects
            .iter()
            .filter(|o| o.kind == ObjectKind::Wmo)
            .count();
        (self.objects.len() - wmos, wmos)
    }

    /// The objects drawn as placeholders under `filter`, with the world point their marker
    /// sits at (a WMO's own doodads are part of the WMO and left out).
    pub fn placeholders(&self, filter: &ObjectFilter) -> Vec<(ObjectKind, u32, Vec3)> {
        self.instances
            .iter()
            .filter(|i| i.look == InstanceLook::Missing && i.kind != InstanceKind::WmoDoodad)
            .filter(|i| filter.placeholders && filter.shows(i.kind))
            .filter_map(|i| {
                let o = self.objects.get(i.object)?;
                Some((o.kind, o.unique_id, i.origin))
            })
            .collect()
    }

    /// How many models are drawn as placeholders (not found or unreadable): what the notice over
    /// the view counts each frame, from the model table rather than every object.
    pub fn missing_model_count(&self) -> usize {
        self.models
            .values()
            .filter(|e| matches!(e.slot, Slot::Missing | Slot::Failed(_)))
            .count()
    }

    /// The models drawn as placeholders: each path once, why, how many objects of the loaded
    /// tiles place it and in which tiles; sorted by path.
    pub fn missing_models(&self) -> Vec<MissingModel> {
        let mut out: std::collections::BTreeMap<String, MissingModel> = Default::default();
        for o in &self.objects {
            let Some(name) = &o.model else { continue };
            let why = match self.models.get(&texture_key(name)).map(|e| &e.slot) {
                Some(Slot::Missing) => "not found".to_string(),
                Some(Slot::Failed(e)) => format!("unreadable: {e}"),
                _ => continue,
            };
            let m = out
                .entry(texture_key(name))
                .or_insert_with(|| MissingModel {
                    name: name.clone(),
                    why,
                    placements: 0,
                    tiles: Default::default(),
                });
            m.placements += 1;
            m.tiles.insert(o.tile);
        }
        out.into_values().collect()
    }

    /// The status bar's note on models without a real one: "2 models not found: A.m2, …".
    pub fn status(&self) -> Option<String> {
        let mut missing: Vec<&str> = Vec::new();
        let mut failed = 0;
        for e in self.models.values() {
            match e.slot {
                Slot::Missing => missing.push(&e.name),
                Slot::Failed(_) => failed += 1,
                _ => {}
            }
        }
        missing.sort_unstable();
        let mut parts = Vec::new();
        if !missing.is_empty() {
            let more = if missing.len() > 2 { ", …" } else { "" };
            parts.push(format!(
                "{} model{} not found: {}{more}",
                missing.len(),
                if missing.len() == 1 { "" } else { "s" },
                missing[..missing.len().min(2)].join(", ")
            ));
        }
        if failed > 0 {
            parts.push(format!("{failed} unreadable"));
        }
        if !self.textures_missing.is_empty() {
            parts.push(format!(
                "{} model texture(s) missing",
                self.textures_missing.len()
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// A model the loaded tiles place that is drawn as placeholders ([`ObjectScene::missing_models`]).
#[derive(Debug, Clone, PartialEq)]
pub struct MissingModel {
    /// Its path as the tiles name it.
    pub name: String,
    /// "not found", or "unreadable: …".
    pub why: String,
    /// Objects that place it.
    pub placements: usize,
    /// The tiles that place it.
    pub tiles: std::collections::BTreeSet<crate::model::TileCoord>,
}

/// The placeholder of an object whose model is missing or unreadable: the record's own box
/// for a WMO (world space), else the stand-in box at the placement.
fn placeholder(index: usize, o: &MapObject, kind: InstanceKind, matrix: Mat4) -> Instance {
    match o.record_bounds {
        Some((lo, hi)) if lo.iter().zip(&hi).all(|(a, b)| a < b) => Instance::new(
            index,
            kind,
            InstanceLook::Missing,
            Mat4::IDENTITY,
            (
                glam::DVec3::from(lo).as_vec3(),
                glam::DVec3::from(hi).as_vec3(),
            ),
        )
        .at_origin(matrix.transform_point3(Vec3::ZERO)),
        _ => Instance::new(index, kind, InstanceLook::Missing, matrix, DOODAD_BOX),
    }
}
