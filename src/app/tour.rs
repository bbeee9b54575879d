//! `loam screenshot MAP OUT.png --tour SECONDS`: the camera flies over every present tile of
//! the map, row by row (north to south, each row west to east), at the height the map opened
//! at, in SECONDS of wall time, while the tiles stream in and out as they do for a user. It
//! prints the memory in use about once a second (`tour T s tile I/N memory X MB`) and at the
//! end `tiles loaded N, dropped M, peak memory X MB`; then the last frame is written.
//!
//! Memory is the process's resident set (`VmRSS`) and its peak (`VmHWM`, or the highest
//! `VmRSS` sampled every frame where that is higher: the kernel updates `VmHWM` only now and
//! then) from `/proc/self/status`, Linux's figures; elsewhere the lines say `unknown`.
//!
//! Not for: the streaming itself (`app::scene::streams`) or the screenshot's other steps
//! (`app::screenshot`).

use std::time::Instant;

use super::context::AppCtx;
use crate::model::TileCoord;

/// A tour under way.
#[derive(Debug)]
pub struct Tour {
    seconds: f64,
    path: Vec<TileCoord>,
    started: Option<Instant>,
    height: f64,
    next_sample: f64,
    loaded_at_start: u64,
    dropped_at_start: u64,
    /// The highest resident set seen, sampled every frame: Linux updates `VmHWM` only now
    /// and then, so a peak between its updates is missed by it alone.
    highest: u64,
    done: bool,
}

impl Tour {
    /// A tour of `seconds`, begun once the map is open.
    pub fn new(seconds: f64) -> Tour {
        Tour {
            seconds: seconds.max(0.0),
            path: Vec::new(),
            started: None,
            height: 0.0,
            next_sample: 0.0,
            loaded_at_start: 0,
            dropped_at_start: 0,
            highest: 0,
            done: false,
        }
    }

    /// True once the camera has flown the whole path (and the figures are printed).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Moves the camera to where the tour is now; prints the samples and, at the end, the
    /// figures.
    pub fn fly(&mut self, cx: &mut AppCtx) {
        if self.done {
            return;
        }
        let Some(session) = cx.doc.session.as_ref() else {
            return;
        };
        let started = *self.started.get_or_insert_with(|| {
            // Row by row: north to south (y), each row west to east (x).
            let mut path: Vec<TileCoord> = session.on_disk.iter().copied().collect();
            path.extend(session.map.tiles.keys().copied());
            path.sort_by_key(|c| (c.y, c.x));
            path.dedup();
            self.path = path;
            self.height = cx.view.camera.position[2];
            self.loaded_at_start = cx.streams.loaded_count;
            self.dropped_at_start = cx.streams.dropped_count;
            Instant::now()
        });
        let t = started.elapsed().as_secs_f64();
        let rss = resident_bytes();
        self.highest = self.highest.max(rss.unwrap_or(0));
        let n = self.path.len();
        if n == 0 || t >= self.seconds {
            self.finish(cx, t);
            return;
        }
        // Where along the path: tile i, and the fraction of the way to the next.
        let along = t / self.seconds.max(1e-9) * n as f64;
        let i = (along as usize).min(n - 1);
        let f = along - i as f64;
        let a = self.path[i].centre();
        let b = self.path[(i + 1).min(n - 1)].centre();
        let at = [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
        let camera = &mut cx.view.camera;
        camera.position = [at[0], at[1], self.height];
        // Looking ahead along the row (east: −y), down at the ground.
        camera.look_at([at[0], at[1] - 300.0, self.height - 250.0]);
        if t >= self.next_sample {
            self.next_sample = t.floor() + 1.0;
            println!("tour {t:.1} s tile {}/{n} memory {}", i + 1, megabytes(rss));
        }
    }

    fn finish(&mut self, cx: &AppCtx, t: f64) {
        self.done = true;
        println!("tour {t:.1} s: the whole path flown");
        println!(
            "tiles loaded {}, dropped {}, peak memory {}",
            cx.streams.loaded_count - self.loaded_at_start,
            cx.streams.dropped_count - self.dropped_at_start,
            megabytes(peak_resident_bytes().map(|p| p.max(self.highest)))
        );
    }
}

/// `X MB`, or `unknown`.
fn megabytes(bytes: Option<u64>) -> String {
    bytes.map_or("unknown".into(), |b| format!("{} MB", b / (1 << 20)))
}

/// The process's resident set now (Linux: `VmRSS` of `/proc/self/status`).
fn resident_bytes() -> Option<u64> {
    status_kilobytes("VmRSS:")
}

/// The process's peak resident set (Linux: `VmHWM` of `/proc/self/status`).
fn peak_resident_bytes() -> Option<u64> {
    status_kilobytes("VmHWM:")
}

/// The `/proc/self/status` line starting with `key`, in bytes (the file gives kB).
fn status_kilobytes(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
