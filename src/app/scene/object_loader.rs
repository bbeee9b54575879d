//! Models and model textures off the UI thread: two worker threads read model files (with their
//! skins and WMO groups) and BLP textures through the map's `ByteSource` and hand back
//! GPU-ready meshes and pixels; answers for an earlier map or source are dropped.
//!
//! Not for: GL (the object renderer) or which models a map needs (`app::scene::object_scene`).

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

use glam::{Mat4, Quat, Vec3};

use crate::assets::blp::{self, Image};
use crate::assets::models::wmo_light::{self, BatchLight};
use crate::assets::models::{AnyModel, DoodadSet, ModelErrorKind, ModelMesh, read_model};
use crate::assets::textures::ByteSource;
use crate::render::texture_store::texture_key;

/// Worker threads: two, so that one large WMO does not hold up every small doodad.
const WORKERS: usize = 2;

/// A doodad a WMO places, in the WMO's model space.
#[derive(Debug, Clone, PartialEq)]
pub struct WmoDoodad {
    /// Model path as MODN names it.
    pub model: String,
    /// WMO model space ← doodad model space.
    pub matrix: Mat4,
}

/// A model read and ready for the GPU.
#[derive(Debug, Clone)]
pub struct PreparedModel {
    /// Geometry, batches, textures.
    pub mesh: ModelMesh,
    /// Per batch, how it is lit (a WMO group's light and vertex colours; default for the rest).
    pub lights: Vec<BatchLight>,
    /// Model-space box for culling and outlines: the bind pose's, or the file's declared box
    /// when the model has no geometry.
    pub bounds: (Vec3, Vec3),
    /// The model-space box object edits place it by (`AnyModel::placement_bounds`).
    pub placement: ([f32; 3], [f32; 3]),
    /// For a WMO: its doodad sets and doodads.
    pub doodad_sets: Vec<DoodadSet>,
    /// See `doodad_sets`.
    pub doodads: Vec<WmoDoodad>,
    /// Texture files the batches name.
    pub texture_files: Vec<String>,
    /// The bones that move an M2 or MDX in its stand sequence (`None` when they never move).
    pub rig: Option<std::sync::Arc<crate::assets::models::Rig>>,
}

/// What became of one model path.
#[derive(Debug, Clone)]
pub enum ModelAnswer {
    /// Read.
    Ready(Arc<PreparedModel>),
    /// No such file (nor its `.m2`/`.mdx` twin).
    Missing,
    /// The file is there but could not be read: the message names file, chunk and offset.
    Failed(String),
}

/// What a worker answered.
pub enum Answer {
    /// A model path (as asked).
    Model(String, ModelAnswer),
    /// A texture path (as asked) and its pixels, or why there are none.
    Texture(String, Result<Image, String>),
}

enum Job {
    Model(String),
    Texture(String),
}

struct Request {
    session: u64,
    job: Job,
    source: ByteSource,
}

/// The workers and what was asked in this session.
pub struct ObjectLoader {
    requests: Option<Sender<Request>>,
    results: Receiver<(u64, Answer)>,
    session: u64,
    source: Option<ByteSource>,
    asked: HashSet<String>,
    in_flight: usize,
}

/// Reads one model (what a worker does per model request).
pub fn prepare_model(source: &ByteSource, path: &str) -> ModelAnswer {
    let error: RefCell<Option<String>> = RefCell::new(None);
    let fetch = |name: &str| match source(name) {
        Ok(bytes) => bytes,
        Err(e) => {
            error.borrow_mut().get_or_insert(e);
            None
        }
    };
    match read_model(path, &fetch) {
        Ok(model) => ModelAnswer::Ready(Arc::new(prepared(model))),
        Err(e) if e.kind == ModelErrorKind::NotFound => match error.into_inner() {
            Some(read_error) => ModelAnswer::Failed(format!("{path}: {read_error}")),
            None => ModelAnswer::Missing,
        },
        Err(e) => ModelAnswer::Failed(e.to_string()),
    }
}

/// The GPU-ready parts of a model read.
fn prepared(model: AnyModel) -> PreparedModel {
    let placement = model.placement_bounds();
    let mut rig = None;
    let (mesh, file_bounds, lights, doodad_sets, doodads) = match model {
        AnyModel::Model(m) => {
            rig = m.rig.map(std::sync::Arc::new);
            (m.mesh, m.file_bounds, Vec::new(), Vec::new(), Vec::new())
        }
        AnyModel::Wmo(mut w) => {
            let lights = wmo_light::batch_lights(&w);
            // The colours the client lights with: MOCV after its load-time fix-up.
            w.mesh.colors = wmo_light::lit_vertex_colors(&w);
            let doodads = w
                .doodads
                .iter()
                .map(|d| WmoDoodad {
                    model: d.model.clone(),
                    matrix: Mat4::from_scale_rotation_translation(
                        Vec3::splat(d.scale),
                        Quat::from_array(d.rotation).normalize(),
                        Vec3::from_array(d.position),
                    ),
                })
                .collect();
            (w.mesh, w.bounds, lights, w.doodad_sets, doodads)
        }
    };
    let box_of = |b: crate::assets::models::Aabb| (Vec3::from(b.min), Vec3::from(b.max));
    let bounds = if mesh.vertices.is_empty() {
        box_of(file_bounds)
    } else if rig.is_some() {
        // A moving model leaves its bind pose: the file's box covers its animations.
        box_of(mesh.bounds.union(file_bounds))
    } else {
        box_of(mesh.bounds)
    };
    let mut seen = HashSet::new();
    let texture_files = mesh
        .textures
        .iter()
        .filter_map(|t| match t {
            crate::assets::models::TextureRef::File(f) if seen.insert(texture_key(f)) => {
                Some(f.clone())
            }
            _ => None,
        })
        .collect();
    PreparedModel {
        placement: (placement.min, placement.max),
        mesh,
        lights,
        bounds,
        doodad_sets,
        doodads,
        texture_files,
        rig,
    }
}

/// Reads and decodes one model texture.
fn prepare_texture(source: &ByteSource, name: &str) -> Result<Image, String> {
    match source(name)? {
        Some(bytes) => blp::decode(&bytes).map_err(|e| format!("{name}: {e}")),
        None => Err(format!("{name}: not found")),
    }
}

impl ObjectLoader {
    /// Starts the workers; `wake` is called after each answer (the app asks egui to repaint).
    pub fn new(wake: Arc<dyn Fn() + Send + Sync>) -> ObjectLoader {
        let (req_tx, req_rx) = mpsc::channel::<Request>();
        let (res_tx, res_rx) = mpsc::channel::<(u64, Answer)>();
        let req_rx = Arc::new(Mutex::new(req_rx));
        let mut started = 0;
        for i in 0..WORKERS {
            let (rx, tx, wake) = (req_rx.clone(), res_tx.clone(), wake.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("loam-model-loader-{i}"))
                .spawn(move || {
                    loop {
                        // The lock is held only to take the next request.
                        let Ok(r) = rx
                            .lock()
                            .map_err(|_| ())
                            .and_then(|g| g.recv().map_err(|_| ()))
                        else {
                            break;
                        };
                        let answer = match r.job {
                            Job::Model(path) => {
                                let a = prepare_model(&r.source, &path);
                                Answer::Model(path, a)
                            }
                            Job::Texture(name) => {
                                let a = prepare_texture(&r.source, &name);
                                Answer::Texture(name, a)
                            }
                        };
                        if tx.send((r.session, answer)).is_err() {
                            break;
                        }
                        wake();
                    }
                });
            started += spawned.is_ok() as usize;
        }
        ObjectLoader {
            // Without a worker every model stays "loading" and nothing is drawn.
            requests: (started > 0).then_some(req_tx),
            results: res_rx,
            session: 0,
            source: None,
            asked: HashSet::new(),
            in_flight: 0,
        }
    }

    /// Starts over with a new map or byte source; answers still coming are dropped.
    pub fn start(&mut self, source: ByteSource) {
        self.session += 1;
        self.source = Some(source);
        self.asked.clear();
        self.in_flight = 0;
    }

    /// Asks for a model path, once per session (paths compared without case or slash).
    pub fn want_model(&mut self, path: &str) {
        self.send(path, Job::Model(path.to_string()));
    }

    /// Asks for a texture path, once per session.
    pub fn want_texture(&mut self, name: &str) {
        self.send(name, Job::Texture(name.to_string()));
    }

    fn send(&mut self, name: &str, job: Job) {
        let (Some(tx), Some(source)) = (&self.requests, &self.source) else {
            return;
        };
        let kind = if matches!(job, Job::Model(_)) {
            "m:"
        } else {
            "t:"
        };
        if !self.asked.insert(format!("{kind}{}", texture_key(name))) {
            return;
        }
        let sent = tx.send(Request {
            session: self.session,
            job,
            source: source.clone(),
        });
        if sent.is_ok() {
            self.in_flight += 1;
        }
    }

    /// True when nothing asked is still being read.
    pub fn is_settled(&self) -> bool {
        self.in_flight == 0 || self.requests.is_none()
    }

    /// The answers for this session since the last call.
    pub fn poll(&mut self) -> Vec<Answer> {
        let mut out = Vec::new();
        while let Ok((session, a)) = self.results.try_recv() {
            if session == self.session {
                self.in_flight = self.in_flight.saturating_sub(1);
                out.push(a);
            }
        }
        out
    }
}
