//! Where a frame's time goes: each pass's GPU time (`GL_TIME_ELAPSED` queries) and the CPU
//! time spent issuing it.
//!
//! The queries never stall a frame: each pass has one query per frame of a ring of
//! [`RING`] frames, and a frame's results are read only once the GPU says they are there
//! (`GL_QUERY_RESULT_AVAILABLE`), a frame or two later; a result not there yet when its slot
//! comes round again is dropped rather than waited for. Only one `GL_TIME_ELAPSED` query may
//! run at a time, so the passes are timed one after another, as they are drawn.
//!
//! Timer queries are core in desktop GL 3.3 (`ARB_timer_query`) and in Mesa's llvmpipe; on
//! GLES they need `EXT_disjoint_timer_query`. Without them the GPU times are absent and only
//! the CPU times are given.
//!
//! On Mesa's rasterizers on the CPU (llvmpipe, softpipe) the queries say nothing about a
//! pass: llvmpipe bins a frame's commands into screen tiles, and each rasterizer thread
//! overwrites a query's start and end with its clock at every tile it meets them in
//! (`lp_rast_begin_query` and `lp_rast_end_query` in Mesa's `lp_rast.c`), so a result is about
//! one tile's time plus the threads' skew: a pass drawing nothing read 12 – 15 ms, a whole
//! continent tile's terrain 0.02 ms. There the timer waits instead for each pass to finish
//! (`glFinish`) and gives that wait as the pass's GPU time: the rasterizer's share of the pass,
//! beside the CPU time of issuing it (on llvmpipe that includes the vertex shading, done in the
//! draw calls). Waiting costs a little overlap between passes, and happens only while the
//! figures are wanted. A pass that draws nothing is given 0 rather than a query's overhead
//! ([`PassTimer::skipped`]).
//!
//! The queries run only while someone reads them ([`PassTimer::want_gpu`]: `--measure`, the
//! status bar's breakdown on hover), not in every frame: on Mesa 22.3's llvmpipe, draws inside
//! a `GL_TIME_ELAPSED` query leave memory behind in the driver, and a tour over a 64 × 64 map
//! grew by about 170 MB every five minutes with them always on and not at all without them
//! (docs/reliability.md, "Hours of flying"). The CPU times are taken in every frame. On the
//! rasterizers on the CPU no query runs at all now, and the waits too happen only on demand.
//!
//! Not for: drawing (the passes' own renderers) or showing the figures (`ui::status`,
//! `cli::screenshot`).

use std::time::Instant;

use glow::HasContext;

/// The passes of a frame, in the order their figures are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// The terrain, with its grids, tints and brush ring.
    Terrain,
    /// Doodads, WMOs, placeholder and selection boxes.
    Objects,
    /// Liquid surfaces.
    Liquids,
    /// The WDL's distant terrain.
    Horizon,
    /// The sky dome.
    Sky,
    /// Everything egui draws in the window besides the 3D view: the menu bar, the side panels
    /// and the status bar under it, and over it the tools' marks, the gizmo, windows, menus
    /// and tooltips (timed in two pieces, before and after the view, and summed).
    Overlays,
}

impl Pass {
    /// Every pass, in print order.
    pub const ALL: [Pass; 6] = [
        Pass::Terrain,
        Pass::Objects,
        Pass::Liquids,
        Pass::Horizon,
        Pass::Sky,
        Pass::Overlays,
    ];

    /// The name `loam screenshot --measure` prints.
    pub fn name(self) -> &'static str {
        match self {
            Pass::Terrain => "terrain",
            Pass::Objects => "objects",
            Pass::Liquids => "liquids",
            Pass::Horizon => "horizon",
            Pass::Sky => "sky",
            Pass::Overlays => "overlays",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Frames in the queries' ring: a frame's results are read two frames after it was drawn.
const RING: usize = 3;
const PASSES: usize = Pass::ALL.len();
/// Frames the GPU is timed for after a [`PassTimer::want_gpu`]: enough for the ring to bring
/// results back, and for a tooltip asked for in every frame it shows to stay current.
const WANTED_FRAMES: usize = 30;
/// Queries a frame: one a pass, and one more for the overlays drawn before the view.
const QUERIES: usize = PASSES + 1;
/// The query of the overlays drawn before the view.
const UNDER: usize = PASSES;

/// One frame's figures, per pass (in [`Pass::ALL`] order), in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PassTimes {
    /// The GPU's time for each pass; `None` where the pass did not run or the GPU gave no
    /// figure (no timer queries).
    pub gpu: [Option<f32>; PASSES],
    /// The CPU's time issuing each pass's GL calls.
    pub cpu: [f32; PASSES],
}

/// One slot of the ring: a frame's queries and which of them ran.
#[derive(Debug)]
struct Slot {
    queries: [glow::Query; QUERIES],
    ran: [bool; QUERIES],
    /// Passes that drew nothing this frame.
    empty: [bool; QUERIES],
    cpu: [f32; QUERIES],
    /// On a rasterizer on the CPU, the time each pass took to finish after it was issued.
    finished: [Option<f32>; QUERIES],
    /// True between the frame's first pass and the reading of its results.
    in_use: bool,
}

/// The ring of queries and the last frame whose figures are complete.
#[derive(Debug)]
pub struct PassTimer {
    slots: Vec<Slot>,
    frame: usize,
    /// The query running (a pass's index, or [`UNDER`]), with the CPU clock at its start.
    running: Option<(usize, Instant)>,
    /// True from [`PassTimer::begin_frame`] to [`PassTimer::end_frame`].
    open: bool,
    last: Option<PassTimes>,
    /// The last frame the GPU's times are wanted for.
    wanted_until: usize,
    /// True while this frame's passes are timed on the GPU.
    querying: bool,
    /// True on a rasterizer on the CPU: passes are timed by waiting for each to finish, not by
    /// queries (see the module's notes).
    software: bool,
}

impl PassTimer {
    /// A timer on `gl`: with timer queries when the context has them, else CPU times only.
    pub fn new(gl: &glow::Context) -> PassTimer {
        let slots = if has_timer_queries(gl) {
            (0..RING)
                .map(|_| {
                    // SAFETY: plain GL calls on the current context.
                    let queries: Result<Vec<glow::Query>, String> =
                        (0..QUERIES).map(|_| unsafe { gl.create_query() }).collect();
                    queries
                        .ok()
                        .and_then(|q| q.try_into().ok())
                        .map(|queries| Slot {
                            queries,
                            ran: [false; QUERIES],
                            empty: [false; QUERIES],
                            cpu: [0.0; QUERIES],
                            finished: [None; QUERIES],
                            in_use: false,
                        })
                })
                .collect::<Option<Vec<Slot>>>()
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        // SAFETY: a plain GL query on the current context.
        let renderer = unsafe { gl.get_parameter_string(glow::RENDERER) };
        PassTimer {
            software: super::is_software_rasterizer(&renderer),
            slots,
            frame: 0,
            running: None,
            open: false,
            last: None,
            wanted_until: 0,
            querying: false,
        }
    }

    /// True when the GPU's times can be measured (the context has timer queries).
    pub fn measures_gpu(&self) -> bool {
        !self.slots.is_empty()
    }

    /// Times the passes on the GPU in the next frames too (a few dozen); called in every
    /// frame whose figures someone reads.
    pub fn want_gpu(&mut self) {
        self.wanted_until = self.frame.saturating_add(WANTED_FRAMES);
    }

    /// This frame's slot of the ring, while the GPU is timed.
    fn slot(&mut self) -> Option<&mut Slot> {
        if !self.querying {
            return None;
        }
        self.slots.get_mut(self.frame % RING)
    }

    /// Starts a frame: ends a query still running (the overlays of a frame whose closing
    /// callback did not come), reads the oldest slot's results when the GPU has them, and
    /// takes that slot for this frame.
    pub fn begin_frame(&mut self, gl: &glow::Context) {
        self.end(gl);
        self.open = true;
        self.frame = self.frame.wrapping_add(1);
        self.querying = !self.slots.is_empty() && self.frame <= self.wanted_until;
        if !self.querying {
            // Results still out are dropped: the slots start afresh when timing resumes.
            for slot in &mut self.slots {
                slot.in_use = false;
            }
            if let Some(t) = &mut self.last {
                t.cpu[Pass::Overlays.index()] = 0.0;
                // The GPU's figures are of a frame long gone; only the CPU's are current.
                t.gpu = [None; PASSES];
            }
            return;
        }
        let i = self.frame % RING;
        let slot = &mut self.slots[i];
        if slot.in_use {
            // SAFETY: reading query objects this timer made, on the current context.
            let ready = slot
                .ran
                .iter()
                .zip(&slot.queries)
                .filter(|(ran, _)| **ran)
                .all(|(_, q)| unsafe {
                    gl.get_query_parameter_u32(*q, glow::QUERY_RESULT_AVAILABLE) != 0
                });
            if ready {
                let gpu: [Option<f32>; QUERIES] = std::array::from_fn(|k| {
                    if slot.empty[k] {
                        Some(0.0)
                    } else if let Some(ms) = slot.finished[k] {
                        Some(ms)
                    } else if slot.ran[k] {
                        // SAFETY: as above; the result is available, so this does not wait.
                        let ns = unsafe {
                            gl.get_query_parameter_u64(slot.queries[k], glow::QUERY_RESULT)
                        };
                        Some(ns as f32 / 1.0e6)
                    } else {
                        None
                    }
                });
                self.last = Some(summed(gpu, slot.cpu));
            }
        }
        slot.ran = [false; QUERIES];
        slot.empty = [false; QUERIES];
        slot.cpu = [0.0; QUERIES];
        slot.finished = [None; QUERIES];
        slot.in_use = true;
    }

    /// Starts timing `pass` (ending the one running, if any).
    pub fn begin(&mut self, gl: &glow::Context, pass: Pass) {
        self.begin_query(gl, pass.index());
    }

    /// Starts timing the overlays drawn before the 3D view (the panels, the menu bar): the
    /// first call of a frame, from a callback egui runs before it draws anything else.
    pub fn begin_under(&mut self, gl: &glow::Context) {
        self.begin_query(gl, UNDER);
    }

    fn begin_query(&mut self, gl: &glow::Context, k: usize) {
        self.end(gl);
        let software = self.software;
        if let Some(slot) = self.slot()
            && !software
        {
            // SAFETY: begins a query this timer made; no other TIME_ELAPSED query runs (`end`).
            unsafe { gl.begin_query(glow::TIME_ELAPSED, slot.queries[k]) };
            slot.ran[k] = true;
        }
        self.running = Some((k, Instant::now()));
    }

    /// True while a frame is being timed (begun and not yet ended).
    pub fn frame_open(&self) -> bool {
        self.open
    }

    /// Ends the frame: the pass being timed (the overlays) ends.
    pub fn end_frame(&mut self, gl: &glow::Context) {
        self.end(gl);
        self.open = false;
    }

    /// Ends the pass being timed, if any.
    pub fn end(&mut self, gl: &glow::Context) {
        let Some((k, started)) = self.running.take() else {
            return;
        };
        let cpu = started.elapsed().as_secs_f32() * 1000.0;
        let software = self.software;
        match self.slot() {
            Some(slot) if software => {
                // The rasterizer's share of the pass: what is left to do once its calls are
                // issued, waited for here so that the next pass starts from an idle queue.
                let issued = Instant::now();
                // SAFETY: a plain GL call on the current context.
                unsafe { gl.finish() };
                let ms = issued.elapsed().as_secs_f32() * 1000.0;
                slot.cpu[k] += cpu;
                slot.finished[k] = Some(slot.finished[k].unwrap_or(0.0) + ms);
            }
            Some(slot) => {
                // SAFETY: ends the query `begin_query` started.
                unsafe { gl.end_query(glow::TIME_ELAPSED) };
                slot.cpu[k] += cpu;
            }
            None => {
                // No queries: the CPU times are the frame's figures at once.
                let t = self.last.get_or_insert_with(PassTimes::default);
                let k = k.min(PASSES - 1);
                t.cpu[k] = if k == Pass::Overlays.index() {
                    t.cpu[k] + cpu
                } else {
                    cpu
                };
            }
        }
    }

    /// Records that `pass` drew nothing this frame (no GL work): its GPU time is 0, not the
    /// driver's overhead of a query around nothing (on llvmpipe about a millisecond).
    pub fn skipped(&mut self, gl: &glow::Context, pass: Pass) {
        self.end(gl);
        if let Some(slot) = self.slot() {
            slot.empty[pass.index()] = true;
        }
    }

    /// Times `draw` as `pass`.
    pub fn time<R>(&mut self, gl: &glow::Context, pass: Pass, draw: impl FnOnce() -> R) -> R {
        self.begin(gl, pass);
        let out = draw();
        self.end(gl);
        out
    }

    /// The figures of the latest frame the GPU has finished.
    pub fn last(&self) -> Option<PassTimes> {
        self.last
    }

    /// Frees the queries.
    pub fn destroy(&mut self, gl: &glow::Context) {
        self.end(gl);
        for slot in self.slots.drain(..) {
            for q in slot.queries {
                // SAFETY: deletes query objects this timer made.
                unsafe { gl.delete_query(q) };
            }
        }
    }
}

/// A frame's figures with the overlays' two pieces summed into one.
fn summed(gpu: [Option<f32>; QUERIES], cpu: [f32; QUERIES]) -> PassTimes {
    let mut out = PassTimes::default();
    out.gpu.copy_from_slice(&gpu[..PASSES]);
    out.cpu.copy_from_slice(&cpu[..PASSES]);
    let o = Pass::Overlays.index();
    if let Some(under) = gpu[UNDER] {
        out.gpu[o] = Some(out.gpu[o].unwrap_or(0.0) + under);
    }
    out.cpu[o] += cpu[UNDER];
    out
}

/// True when `gl` has `GL_TIME_ELAPSED` queries.
fn has_timer_queries(gl: &glow::Context) -> bool {
    let v = gl.version();
    let ext = gl.supported_extensions();
    if v.is_embedded {
        ext.contains("GL_EXT_disjoint_timer_query")
    } else {
        (v.major, v.minor) >= (3, 3) || ext.contains("GL_ARB_timer_query")
    }
}

/// The median of each pass's figures over `frames` (`None` for a GPU time no frame gave).
pub fn medians(frames: &[PassTimes]) -> PassTimes {
    let median = |mut v: Vec<f32>| -> Option<f32> {
        if v.is_empty() {
            return None;
        }
        v.sort_by(f32::total_cmp);
        Some(v[v.len() / 2])
    };
    let mut out = PassTimes::default();
    for k in 0..PASSES {
        out.gpu[k] = median(frames.iter().filter_map(|f| f.gpu[k]).collect());
        out.cpu[k] = median(frames.iter().map(|f| f.cpu[k]).collect()).unwrap_or(0.0);
    }
    out
}

/// One line a pass, as `loam screenshot --measure` prints and the status bar's tooltip shows:
/// `pass NAME gpu X ms cpu Y ms` (`gpu - ms` where there is no figure).
pub fn lines(times: &PassTimes) -> Vec<String> {
    Pass::ALL
        .iter()
        .map(|p| {
            let k = p.index();
            let gpu = times.gpu[k].map_or("-".to_string(), |g| format!("{g:.3}"));
            format!("pass {} gpu {gpu} ms cpu {:.3} ms", p.name(), times.cpu[k])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_take_each_pass_on_its_own_and_lines_name_every_pass() {
        let frame = |g: f32, c: f32| PassTimes {
            gpu: [Some(g), None, Some(1.0), None, None, None],
            cpu: [c; PASSES],
        };
        let m = medians(&[frame(3.0, 0.5), frame(1.0, 0.1), frame(2.0, 0.3)]);
        assert_eq!(m.gpu[0], Some(2.0));
        assert_eq!(m.gpu[1], None);
        assert_eq!(m.cpu[5], 0.3);
        let l = lines(&m);
        assert_eq!(l.len(), 6);
        assert_eq!(l[0], "pass terrain gpu 2.000 ms cpu 0.300 ms");
        assert_eq!(l[1], "pass objects gpu - ms cpu 0.300 ms");
        assert!(l[5].starts_with("pass overlays "));
    }
}
