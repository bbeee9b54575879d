//! The CPU side of drawing placed objects: each frame's draw list (which models to draw with
//! which world matrices, which boxes to outline) from the placed instances, culled to the view
//! frustum and, for doodads, to the draw distance; and picking an object under the cursor.
//!
//! Not for: GL (see `render::objects`) or deciding which instances exist (the app builds them
//! from the map's objects and the models read so far).

use std::collections::HashMap;

use glam::{Mat4, Vec3, Vec4};

/// The renderer's handle of one uploaded model (given by the app, one per model path).
pub type ModelId = u32;

/// What a placed instance shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstanceLook {
    /// The model is on the GPU: draw it.
    Model(ModelId),
    /// The model is still being read: draw nothing yet.
    Loading,
    /// The model could not be found or read: draw a placeholder box.
    Missing,
}

/// What kind of placement an instance comes from (for the View toggles and draw distance).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstanceKind {
    /// A doodad the map places (MDDF).
    Doodad,
    /// A WMO the map places (MODF).
    Wmo,
    /// A doodad a WMO places (MODD), shown with its WMO.
    WmoDoodad,
}

/// One placed model in the world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Instance {
    /// The app's index of the object it belongs to (a WMO's doodads share their WMO's).
    pub object: usize,
    /// Doodad, WMO or a WMO's doodad.
    pub kind: InstanceKind,
    /// Model, still loading, or missing.
    pub look: InstanceLook,
    /// Model space → world.
    pub matrix: Mat4,
    /// The model-space box the instance occupies (the model's bounds, or a stand-in box).
    pub local_min: Vec3,
    /// See `local_min`.
    pub local_max: Vec3,
    /// World-space box around the transformed `local_*` box, for culling.
    pub world_min: Vec3,
    /// See `world_min`.
    pub world_max: Vec3,
    /// Where a placeholder's marker sits: the world point the object is placed at, or the
    /// ground straight above it when that point is buried (see `app::scene::object_scene`).
    pub origin: Vec3,
}

impl Instance {
    /// An instance with its world box computed from `matrix` and the local box.
    pub fn new(
        object: usize,
        kind: InstanceKind,
        look: InstanceLook,
        matrix: Mat4,
        local: (Vec3, Vec3),
    ) -> Instance {
        let (lo, hi) = local;
        let mut world_min = Vec3::splat(f32::INFINITY);
        let mut world_max = Vec3::splat(f32::NEG_INFINITY);
        for i in 0..8 {
            let corner = Vec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            );
            let w = matrix.transform_point3(corner);
            world_min = world_min.min(w);
            world_max = world_max.max(w);
        }
        Instance {
            object,
            kind,
            look,
            matrix,
            local_min: lo,
            local_max: hi,
            world_min,
            world_max,
            origin: matrix.transform_point3(Vec3::ZERO),
        }
    }

    /// The same instance placed at `origin` (a WMO placeholder's box is in world space, so its
    /// matrix says nothing of where the object stands).
    pub fn at_origin(self, origin: Vec3) -> Instance {
        Instance { origin, ..self }
    }

    /// The box of the placeholder's marker as seen from `eye`: a cube around the origin.
    pub fn marker_box(&self, eye: Vec3) -> (Vec3, Vec3) {
        let half = marker_half_size(eye, self.origin);
        (
            self.origin - Vec3::splat(half),
            self.origin + Vec3::splat(half),
        )
    }

    /// The matrix that takes the unit cube (0..1 on each axis) onto the instance's box.
    pub fn box_matrix(&self) -> Mat4 {
        self.matrix
            * Mat4::from_translation(self.local_min)
            * Mat4::from_scale((self.local_max - self.local_min).max(Vec3::splat(1e-3)))
    }
}

/// A placeholder's marker spans at least this many yards (seen from close by: objects stacked
/// a third of a yard apart, as Blizzard's tiles place trunks and canopies, stay apart)...
const MARKER_MIN_YARDS: f32 = 0.2;
/// ...and at least this angle seen from the eye (radians): about 7 pixels in a 700-pixel-wide
/// view, so that a marker far away can still be hovered and clicked.
const MARKER_ANGLE: f32 = 0.01;

/// Half the side of the marker of a placeholder at `origin` seen from `eye`.
pub fn marker_half_size(eye: Vec3, origin: Vec3) -> f32 {
    0.5 * (eye.distance(origin) * MARKER_ANGLE).max(MARKER_MIN_YARDS)
}

/// What the View menu and settings let through (persisted with the settings).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ObjectFilter {
    /// Map doodads (and, with `wmos`, a WMO's own doodads).
    pub doodads: bool,
    /// WMOs.
    pub wmos: bool,
    /// Boxes for models that could not be found or read: an outline and a marker at the
    /// object's origin.
    pub placeholders: bool,
    /// Placeholder boxes filled (see-through) as well as outlined. Off by default: hundreds of
    /// filled boxes, some the size of a city block, hide the terrain (View ▸ Fill placeholders).
    pub placeholder_fill: bool,
    /// Outlines of every drawn model's box.
    pub bounding_boxes: bool,
    /// Doodads farther than this from the eye (to their box) are not drawn, in yards.
    pub doodad_distance: f32,
    /// Models play their stand animation and liquids move (View ▸ Animate models); off
    /// freezes both where they are.
    pub animate: bool,
}

impl Default for ObjectFilter {
    fn default() -> Self {
        ObjectFilter {
            doodads: true,
            wmos: true,
            placeholders: true,
            placeholder_fill: false,
            bounding_boxes: false,
            // The sample's and a continent's default views look at the map from some 850
            // yards: doodads must reach that far to be seen at all on opening.
            doodad_distance: 1000.0,
            animate: true,
        }
    }
}

impl ObjectFilter {
    /// True when instances of `kind` are shown at all.
    pub fn shows(&self, kind: InstanceKind) -> bool {
        match kind {
            InstanceKind::Doodad => self.doodads,
            InstanceKind::Wmo => self.wmos,
            InstanceKind::WmoDoodad => self.doodads && self.wmos,
        }
    }
}

/// The scale a sky box model is drawn at around the eye: Noggit Red's (`Skies::draw`), which
/// keeps Blizzard's sky boxes inside the view's far plane.
pub const SKYBOX_SCALE: f32 = 0.1;

/// One frame's objects to draw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DrawList {
    /// Each model with the world matrices of its visible instances, by model id.
    pub models: Vec<(ModelId, Vec<Mat4>)>,
    /// Unit cube → world, one per visible missing model.
    pub placeholders: Vec<Mat4>,
    /// Unit cube → world, the marker at each visible placeholder's origin.
    pub markers: Vec<Mat4>,
    /// Fill the placeholder boxes, not only outline them ([`ObjectFilter::placeholder_fill`]).
    pub placeholder_fill: bool,
    /// Unit cube → world, one per visible model when bounding boxes are on.
    pub bounds: Vec<Mat4>,
    /// Unit cube → world, one per selected object (drawn whatever the filter says).
    pub selected: Vec<Mat4>,
    /// The sky box model around the eye and its model → world matrix, drawn over the sky
    /// and under everything else (`doc::light::ZoneLights::skybox_at`).
    pub skybox: Option<(ModelId, Mat4)>,
}

impl DrawList {
    /// True when there is nothing to draw: no models, boxes or markers.
    pub fn is_empty(&self) -> bool {
        self.models.iter().all(|(_, m)| m.is_empty())
            && self.placeholders.is_empty()
            && self.markers.is_empty()
            && self.bounds.is_empty()
            && self.selected.is_empty()
    }

    /// Instances drawn as models.
    pub fn model_instances(&self) -> usize {
        self.models.iter().map(|(_, m)| m.len()).sum()
    }
}

/// The six planes of a view frustum, each `(normal, d)` with `normal·p + d ≥ 0` inside.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frustum {
    planes: [Vec4; 6],
}

impl Frustum {
    /// The frustum of a world → clip matrix (Gribb and Hartmann's plane extraction, for
    /// OpenGL's −w..w clip depth).
    pub fn from_view_projection(m: Mat4) -> Frustum {
        let r = [m.row(0), m.row(1), m.row(2), m.row(3)];
        let planes = [
            r[3] + r[0],
            r[3] - r[0],
            r[3] + r[1],
            r[3] - r[1],
            r[3] + r[2],
            r[3] - r[2],
        ]
        .map(|p| p / p.truncate().length().max(1e-20));
        Frustum { planes }
    }

    /// False only when the box lies wholly outside one plane (so a few boxes near corners
    /// pass that a tighter test would drop, and none visible is dropped).
    pub fn intersects_box(&self, min: Vec3, max: Vec3) -> bool {
        self.planes.iter().all(|p| {
            // The box corner farthest along the plane's normal.
            let far = Vec3::new(
                if p.x >= 0.0 { max.x } else { min.x },
                if p.y >= 0.0 { max.y } else { min.y },
                if p.z >= 0.0 { max.z } else { min.z },
            );
            p.truncate().dot(far) + p.w >= 0.0
        })
    }
}

/// Distance from `p` to the nearest point of a box (0 inside).
pub fn distance_to_box(p: Vec3, min: Vec3, max: Vec3) -> f32 {
    (min - p).max(p - max).max(Vec3::ZERO).length()
}

/// The draw list for one frame: every instance `filter` shows, inside the frustum, and for
/// doodads within the draw distance of `eye`; models grouped by id in id order.
pub fn build_draw_list(
    instances: &[Instance],
    view_projection: Mat4,
    eye: Vec3,
    filter: &ObjectFilter,
) -> DrawList {
    let frustum = Frustum::from_view_projection(view_projection);
    let mut by_model: HashMap<ModelId, Vec<Mat4>> = HashMap::new();
    let mut list = DrawList::default();
    for inst in instances {
        if !filter.shows(inst.kind) {
            continue;
        }
        if inst.kind != InstanceKind::Wmo
            && distance_to_box(eye, inst.world_min, inst.world_max) > filter.doodad_distance
        {
            continue;
        }
        if !frustum.intersects_box(inst.world_min, inst.world_max) {
            continue;
        }
        match inst.look {
            InstanceLook::Model(id) => {
                by_model.entry(id).or_default().push(inst.matrix);
                if filter.bounding_boxes {
                    list.bounds.push(inst.box_matrix());
                }
            }
            InstanceLook::Missing if filter.placeholders => {
                list.placeholders.push(inst.box_matrix());
                let (lo, hi) = inst.marker_box(eye);
                list.markers
                    .push(Mat4::from_translation(lo) * Mat4::from_scale(hi - lo));
            }
            InstanceLook::Missing | InstanceLook::Loading => {}
        }
    }
    list.placeholder_fill = filter.placeholder_fill;
    list.models = by_model.into_iter().collect();
    list.models.sort_unstable_by_key(|(id, _)| *id);
    list
}

/// Where a ray first meets an instance's box: the distance along the ray (in units of `dir`),
/// or `None`. The test runs in the box's own space, so a rotated model's box is exact.
pub fn ray_box_hit(inst: &Instance, origin: Vec3, dir: Vec3) -> Option<f32> {
    let to_unit = inst.box_matrix().inverse();
    let o = to_unit.transform_point3(origin);
    let d = to_unit.transform_vector3(dir);
    ray_aabb_hit(Vec3::ZERO, Vec3::ONE, o, d)
}

/// Where a ray first meets an axis-aligned world box, as [`ray_box_hit`].
fn ray_aabb_hit(min: Vec3, max: Vec3, origin: Vec3, dir: Vec3) -> Option<f32> {
    let mut t_near = f32::NEG_INFINITY;
    let mut t_far = f32::INFINITY;
    for axis in 0..3 {
        let (oa, da) = (origin[axis], dir[axis]);
        if da.abs() < 1e-12 {
            if !(min[axis]..=max[axis]).contains(&oa) {
                return None;
            }
            continue;
        }
        let (a, b) = ((min[axis] - oa) / da, (max[axis] - oa) / da);
        t_near = t_near.max(a.min(b));
        t_far = t_far.min(a.max(b));
    }
    (t_near <= t_far && t_far >= 0.0).then_some(t_near.max(0.0))
}

/// The shown instance whose box the ray meets first, with the distance (in units of `dir`).
/// Loading instances are skipped. First the small things the user aims at: drawn models'
/// boxes (not WMOs') and placeholders' markers (seen from the ray's origin, the eye), the
/// nearest winning, so that among overlapping placeholder boxes the marker under the cursor
/// decides. Only when none is hit, every box: a WMO's only when nothing smaller is, since a
/// WMO's box holds everything inside it.
pub fn pick(
    instances: &[Instance],
    origin: Vec3,
    dir: Vec3,
    filter: &ObjectFilter,
) -> Option<(usize, f32)> {
    let shown = |inst: &Instance| {
        filter.shows(inst.kind)
            && inst.look != InstanceLook::Loading
            && (inst.look != InstanceLook::Missing || filter.placeholders)
    };
    let aimed = instances
        .iter()
        .enumerate()
        .filter(|(_, inst)| shown(inst))
        .filter_map(|(i, inst)| match inst.look {
            InstanceLook::Missing => {
                let (lo, hi) = inst.marker_box(origin);
                Some((i, ray_aabb_hit(lo, hi, origin, dir)?))
            }
            _ if inst.kind != InstanceKind::Wmo => Some((i, ray_box_hit(inst, origin, dir)?)),
            _ => None,
        })
        .min_by(|a, b| a.1.total_cmp(&b.1));
    if aimed.is_some() {
        return aimed;
    }
    let mut best: Option<(usize, f32, bool)> = None;
    for (i, inst) in instances.iter().enumerate() {
        if !shown(inst) {
            continue;
        }
        let Some(t) = ray_box_hit(inst, origin, dir) else {
            continue;
        };
        let is_wmo = inst.kind == InstanceKind::Wmo;
        let better = match best {
            None => true,
            Some((_, bt, b_wmo)) => (b_wmo && !is_wmo) || (b_wmo == is_wmo && t < bt),
        };
        if better {
            best = Some((i, t, is_wmo));
        }
    }
    best.map(|(i, t, _)| (i, t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::camera::Camera;

    fn doodad_at(object: usize, x: f32, y: f32, look: InstanceLook) -> Instance {
        Instance::new(
            object,
            InstanceKind::Doodad,
            look,
            Mat4::from_translation(Vec3::new(x, y, 0.0)),
            (Vec3::splat(-1.0), Vec3::splat(1.0)),
        )
    }

    fn camera() -> Camera {
        // At the origin, 10 yards up, looking north (+x) and level.
        Camera {
            position: [0.0, 0.0, 10.0],
            yaw: 0.0,
            pitch: 0.0,
            ..Camera::default()
        }
    }

    #[test]
    fn only_instances_in_front_and_near_enough_are_drawn() {
        let cam = camera();
        let vp = cam.view_projection(1.0);
        let instances = [
            doodad_at(0, 100.0, 0.0, InstanceLook::Model(3)), // ahead
            doodad_at(1, -100.0, 0.0, InstanceLook::Model(3)), // behind
            doodad_at(2, 100.0, 500.0, InstanceLook::Model(3)), // far to the west: outside 60°
            doodad_at(3, 1500.0, 0.0, InstanceLook::Model(3)), // ahead, past 1000 yards
            doodad_at(4, 50.0, 5.0, InstanceLook::Model(1)),
            doodad_at(5, 60.0, 0.0, InstanceLook::Missing),
            doodad_at(6, 70.0, 0.0, InstanceLook::Loading),
        ];
        let list = build_draw_list(&instances, vp, cam.eye(), &ObjectFilter::default());
        assert_eq!(list.models.len(), 2);
        assert_eq!(list.models[0].0, 1);
        assert_eq!(list.models[1].0, 3);
        assert_eq!(list.models[1].1, vec![instances[0].matrix]);
        assert_eq!(list.placeholders.len(), 1);
        assert!(list.bounds.is_empty());
        // A WMO is not held to the doodad distance.
        let mut far_wmo = doodad_at(7, 1500.0, 0.0, InstanceLook::Model(9));
        far_wmo.kind = InstanceKind::Wmo;
        let list = build_draw_list(&[far_wmo], vp, cam.eye(), &ObjectFilter::default());
        assert_eq!(list.model_instances(), 1);
        // Toggles.
        let filter = ObjectFilter {
            doodads: false,
            ..ObjectFilter::default()
        };
        let list = build_draw_list(&instances, vp, cam.eye(), &filter);
        assert_eq!(list.model_instances() + list.placeholders.len(), 0);
        let filter = ObjectFilter {
            bounding_boxes: true,
            placeholders: false,
            ..ObjectFilter::default()
        };
        let list = build_draw_list(&instances, vp, cam.eye(), &filter);
        assert_eq!(list.bounds.len(), 2);
        assert!(list.placeholders.is_empty());
    }

    #[test]
    fn the_world_box_of_a_turned_model_holds_its_corners() {
        let m = Mat4::from_translation(Vec3::new(10.0, 0.0, 0.0))
            * Mat4::from_rotation_z(std::f32::consts::FRAC_PI_4);
        let inst = Instance::new(
            0,
            InstanceKind::Doodad,
            InstanceLook::Missing,
            m,
            (Vec3::ZERO, Vec3::new(2.0, 0.0, 1.0)),
        );
        let s = 2f32.sqrt();
        assert!((inst.world_min - Vec3::new(10.0, 0.0, 0.0)).length() < 1e-5);
        assert!((inst.world_max - Vec3::new(10.0 + s, s, 1.0)).length() < 1e-5);
        // The unit cube's far corner lands on the box's far corner.
        let far = inst.box_matrix().transform_point3(Vec3::ONE);
        assert!((far - m.transform_point3(Vec3::new(2.0, 0.0, 1.0))).length() < 1e-2);
    }

    #[test]
    fn picking_finds_the_nearest_box_and_prefers_doodads_inside_wmos() {
        let a = doodad_at(0, 10.0, 0.0, InstanceLook::Model(1));
        let b = doodad_at(1, 20.0, 0.0, InstanceLook::Missing);
        let loading = doodad_at(2, 5.0, 0.0, InstanceLook::Loading);
        let wmo = Instance::new(
            3,
            InstanceKind::Wmo,
            InstanceLook::Model(2),
            Mat4::IDENTITY,
            (Vec3::new(0.0, -50.0, -50.0), Vec3::splat(50.0)),
        );
        let f = ObjectFilter::default();
        let hit = pick(&[b, a, loading, wmo], Vec3::ZERO, Vec3::X, &f);
        assert_eq!(hit.map(|(i, _)| i), Some(1), "a, 9 yards away");
        assert!((hit.unwrap().1 - 9.0).abs() < 1e-4);
        // A ray that misses both doodads but is inside the WMO picks the WMO.
        let up = pick(&[a, b, wmo], Vec3::ZERO, Vec3::Z, &f);
        assert_eq!(up.map(|(i, _)| i), Some(2));
        // Rotated box: a ray along the box's diagonal direction still hits it.
        let turned = Instance::new(
            0,
            InstanceKind::Doodad,
            InstanceLook::Missing,
            Mat4::from_rotation_z(0.5),
            (Vec3::new(5.0, -0.1, -0.1), Vec3::new(6.0, 0.1, 0.1)),
        );
        let dir = Vec3::new(0.5f32.cos(), 0.5f32.sin(), 0.0);
        assert!(ray_box_hit(&turned, Vec3::ZERO, dir).is_some());
        assert!(ray_box_hit(&turned, Vec3::ZERO, Vec3::X).is_none());
        // Two placeholder boxes that overlap: the marker the ray meets decides, even behind
        // the front box's face.
        let front = doodad_at(4, 10.0, 0.0, InstanceLook::Missing);
        let behind = doodad_at(5, 10.8, 0.0, InstanceLook::Missing);
        let ray_to_behind = Vec3::new(10.8, 0.0, 0.0).normalize();
        let picked = pick(&[front, behind], Vec3::ZERO, ray_to_behind, &f);
        assert_eq!(
            picked.map(|(i, _)| i),
            Some(0),
            "the front marker is met first"
        );
        let above = Vec3::new(10.8, 0.0, 30.0);
        let picked = pick(&[front, behind], above, -Vec3::Z, &f);
        assert_eq!(
            picked.map(|(i, _)| i),
            Some(1),
            "from above, the marker under the eye"
        );
        // Hidden placeholders are not picked.
        let no_boxes = ObjectFilter {
            placeholders: false,
            ..f
        };
        assert_eq!(pick(&[b], Vec3::ZERO, Vec3::X, &no_boxes), None);
    }
}
