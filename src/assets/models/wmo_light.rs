//! How the client lights a WMO group, as data the object shader reads: which groups take the
//! scene's sun and which the WMO's own ambient colour, and the client's load-time fix-up of the
//! vertex colours (MOCV) that both light.
//!
//! Sources: wowdev wiki, WMO (`../shared/specs/001_*.txt`): MOHD `ambColor` (a `CArgb`, bytes
//! r, g, b, a) and flags; MOGP flags 0x8 EXTERIOR, 0x40 EXTERIOR_LIT, 0x2000 INTERIOR; the MOCV
//! notes ("0x2000 groups use only MOCV for lighting … if 0x8 is set, you start out with normal
//! world lighting … and add [MOCV]"); `CMapObjGroup::FixColorVertexAlpha` (decompiled there from
//! build 18179). The split between the two is the one Noggit Red's WMO shader makes
//! (Marlamin/noggit-red `src/glsl/wmo_frag.glsl`, `apply_lighting`: exterior-lit groups take the
//! world's ambient and sun, the others the WMO's ambient and no sun, both plus the vertex
//! colour), and the client's shaders double the fixed-up colour (fallenoak, "WMO: Vertex
//! Colors"; Deamon87/WebWowViewerCpp `wmoShader.frag`, `2.0 * vColor`).
//!
//! Not done: `CMapObj::AttenTransVerts` (it fades the vertex colours of transition batches by
//! their distance to a portal, and needs portals, which are not read): those vertices keep the
//! fix-up's colour, as the client leaves a group none of whose portals leads outside.

use super::WmoModel;

/// MOGP flag: an outdoor group.
pub const GROUP_EXTERIOR: u32 = 0x8;
/// MOGP flag: lit as outdoors even when indoor ("do not use local diffuse lighting").
pub const GROUP_EXTERIOR_LIT: u32 = 0x40;
/// MOGP flag: an indoor group.
pub const GROUP_INTERIOR: u32 = 0x2000;
/// MOHD flag (3.3.5): the fix-up only sets the alpha of non-transition vertices.
pub const ROOT_DO_NOT_FIX_VERTEX_COLOR: u16 = 0x8;
/// MOHD flag (3.3.5): the unified render path, whose vertex colours do not hold the ambient colour,
/// so the fix-up subtracts none.
pub const ROOT_UNIFIED: u16 = 0x2;

/// Which light a WMO group is drawn under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupLight {
    /// The scene's sun and ambient, as the terrain (MOGP 0x8 or 0x40).
    Exterior,
    /// The WMO's ambient colour (MOHD) and no sun: every other group.
    Interior,
}

impl GroupLight {
    /// The light of a group with MOGP flags `flags`.
    pub fn of(flags: u32) -> GroupLight {
        if flags & (GROUP_EXTERIOR | GROUP_EXTERIOR_LIT) != 0 {
            GroupLight::Exterior
        } else {
            GroupLight::Interior
        }
    }
}

/// How one batch of a model is lit, as the object renderer takes it per batch.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BatchLight {
    /// The model's vertex colours add light (a WMO group with MOCV, fixed up).
    pub vertex_colors: bool,
    /// Lit by this ambient colour (RGB, 0..1) instead of the sun: a WMO interior group's.
    pub interior_ambient: Option<[f32; 3]>,
}

/// A colour byte as the shader reads it (0..1).
fn unit(c: u8) -> f32 {
    f32::from(c) / 255.0
}

/// MOHD's ambient colour as the shader takes it (RGB, 0..1).
pub fn ambient_rgb(ambient: [u8; 4]) -> [f32; 3] {
    [unit(ambient[0]), unit(ambient[1]), unit(ambient[2])]
}

/// The light a texel is multiplied by, the rule the object shader applies to WMO batches:
/// `scene` is the sun and ambient the terrain would get at that point, `vertex` the stored
/// (fixed-up) vertex colour when the group has one, `interior_ambient` the WMO's ambient for an
/// interior group. The client's shaders double the stored colour (the fix-up halved it), and
/// the sum saturates.
pub fn batch_light(
    scene: [f32; 3],
    vertex: Option<[f32; 3]>,
    interior_ambient: Option<[f32; 3]>,
) -> [f32; 3] {
    let base = interior_ambient.unwrap_or(scene);
    let add = vertex.unwrap_or([0.0; 3]);
    std::array::from_fn(|i| (base[i] + 2.0 * add[i]).clamp(0.0, 1.0))
}

/// `CMapObjGroup::FixColorVertexAlpha`: rewrites a group's MOCV (RGBA, as read) in place.
/// `trans_vertices` is the number of leading vertices that belong to transition batches (the
/// first `transBatchCount` MOBA records, up to the last one's maxIndex); `ambient` MOHD's
/// colour (RGBA), `root_flags` MOHD's flags, `exterior` MOGP flag 0x8.
///
/// Transition vertices: `(c - ambient) * (1 - a/255) / 2`; the others:
/// `clamp((c * a/64 + c - ambient) / 2, 0, 255)` and alpha 255 outside, 0 inside. With MOHD
/// flag 0x8 only that alpha changes.
pub fn fix_vertex_colors(
    colors: &mut [[u8; 4]],
    trans_vertices: usize,
    ambient: [u8; 4],
    root_flags: u16,
    exterior: bool,
) {
    let trans = trans_vertices.min(colors.len());
    let alpha = if exterior { 255 } else { 0 };
    if root_flags & ROOT_DO_NOT_FIX_VERTEX_COLOR != 0 {
        for c in &mut colors[trans..] {
            c[3] = alpha;
        }
        return;
    }
    let base = if root_flags & ROOT_UNIFIED != 0 {
        [0; 3]
    } else {
        [ambient[0], ambient[1], ambient[2]]
    };
    for c in &mut colors[..trans] {
        let a = f32::from(c[3]) / 255.0;
        for i in 0..3 {
            let v = f32::from(c[i]) - f32::from(base[i]);
            c[i] = ((v - a * v) / 2.0).clamp(0.0, 255.0) as u8;
        }
    }
    for c in &mut colors[trans..] {
        let a = i32::from(c[3]);
        for i in 0..3 {
            let v = i32::from(c[i]);
            c[i] = ((v * a / 64 + v - i32::from(base[i])) / 2).clamp(0, 255) as u8;
        }
        c[3] = alpha;
    }
}

/// The WMO's vertex colours as the client draws them: each group's MOCV through
/// [`fix_vertex_colors`] (groups without MOCV stay white, and are not lit by them); `None` when
/// no group has any.
pub fn lit_vertex_colors(wmo: &WmoModel) -> Option<Vec<[u8; 4]>> {
    let mut colors = wmo.mesh.colors.clone()?;
    for g in wmo.groups.iter().filter(|g| g.has_vertex_colors) {
        let range = g.vertices.start as usize..g.vertices.end as usize;
        if let Some(c) = colors.get_mut(range) {
            fix_vertex_colors(
                c,
                g.trans_vertices as usize,
                wmo.ambient,
                wmo.flags,
                g.flags & GROUP_EXTERIOR != 0,
            );
        }
    }
    Some(colors)
}

/// Per batch of the WMO's mesh, how it is lit (its group's [`GroupLight`] and MOCV).
pub fn batch_lights(wmo: &WmoModel) -> Vec<BatchLight> {
    let mut lights = vec![BatchLight::default(); wmo.mesh.batches.len()];
    for g in &wmo.groups {
        let light = BatchLight {
            vertex_colors: g.has_vertex_colors,
            interior_ambient: match GroupLight::of(g.flags) {
                GroupLight::Interior => Some(ambient_rgb(wmo.ambient)),
                GroupLight::Exterior => None,
            },
        };
        for l in lights.get_mut(g.batches.clone()).into_iter().flatten() {
            *l = light;
        }
    }
    lights
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exterior_lit_groups_are_those_flagged_outdoor_or_exterior_lit() {
        assert_eq!(GroupLight::of(0x8), GroupLight::Exterior);
        // INTERIOR with EXTERIOR_LIT: "exterior lighting is used for the group" (wiki).
        assert_eq!(GroupLight::of(0x2000 | 0x40), GroupLight::Exterior);
        assert_eq!(GroupLight::of(0x2000 | 0x4), GroupLight::Interior);
        assert_eq!(GroupLight::of(0), GroupLight::Interior);
    }

    #[test]
    fn interior_light_is_ambient_plus_twice_the_vertex_colour_and_no_sun() {
        let scene = [0.9, 0.9, 0.9];
        let light = batch_light(scene, Some([0.25, 0.1, 0.0]), Some([0.1, 0.2, 0.3]));
        let want = [0.1 + 0.5, 0.2 + 0.2, 0.3];
        for i in 0..3 {
            assert!((light[i] - want[i]).abs() < 1e-6, "{light:?} vs {want:?}");
        }
        // Without MOCV an interior batch gets the ambient alone, whatever the sun does.
        assert_eq!(
            batch_light([1.0; 3], None, Some([0.1, 0.2, 0.3])),
            [0.1, 0.2, 0.3]
        );
    }

    #[test]
    fn exterior_light_is_the_scene_plus_the_vertex_colour_saturated() {
        assert_eq!(batch_light([0.5; 3], None, None), [0.5; 3]);
        let light = batch_light([0.5; 3], Some([0.1, 0.4, 0.0]), None);
        assert!((light[0] - 0.7).abs() < 1e-6);
        assert_eq!(light[1], 1.0, "saturates");
        assert_eq!(light[2], 0.5);
    }

    #[test]
    fn the_fix_up_follows_the_decompiled_function() {
        // One transition vertex, then one interior-batch vertex; ambient (16, 32, 48).
        let ambient = [16, 32, 48, 255];
        let mut c = [[116, 132, 148, 51], [100, 50, 20, 128]];
        fix_vertex_colors(&mut c, 1, ambient, 0, false);
        // Transition: (c - amb) = 100 for every channel, times (1 - 51/255) = 0.8, halved: 40.
        assert_eq!(c[0], [40, 40, 40, 51]);
        // Others: (c*128/64 + c - amb) / 2 = (3c - amb) / 2: (300-16)/2, (150-32)/2, (60-48)/2;
        // alpha 0 inside.
        assert_eq!(c[1], [142, 59, 6, 0]);

        // Outside the alpha is 255, and the sum clamps at 0 and 255.
        let mut c = [[255, 0, 10, 255]];
        fix_vertex_colors(&mut c, 0, ambient, 0, true);
        assert_eq!(c[0], [255, 0, 0, 255]);

        // Unified path: no ambient to take out.
        let mut c = [[100, 100, 100, 0]];
        fix_vertex_colors(&mut c, 0, ambient, ROOT_UNIFIED, false);
        assert_eq!(c[0], [50, 50, 50, 0]);

        // MOHD 0x8: colours kept, only the alpha set.
        let mut c = [[116, 132, 148, 51], [100, 50, 20, 128]];
        fix_vertex_colors(&mut c, 1, ambient, ROOT_DO_NOT_FIX_VERTEX_COLOR, true);
        assert_eq!(c, [[116, 132, 148, 51], [100, 50, 20, 255]]);
    }
}
