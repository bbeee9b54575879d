//! The uid allocator of the open map: new objects take uniqueIds above every uid the map uses
//! on disk, loaded or not (a worker reads the placements of every tile when the map opens),
//! and in memory, inside the map's range when it has one (its range file beside the map).
//!
//! Not for: finding clashes in a map (`edit::objects::uids`) or the range file's bytes
//! (`disk::uid_range`).

use std::sync::{Arc, Mutex};

use super::session::Session;
use crate::edit::objects::{self, UidRange};
use crate::model::objects::UidTiles;

/// The uids of the tiles on disk and the tiles listing each (doodads and WMOs together: a uid
/// the two kinds share lists the tiles of both, which only means a tile more is loaded).
pub type DiskUids = UidTiles;

/// Where new objects' uniqueIds come from.
#[derive(Debug, Default)]
pub struct UidAllocator {
    /// Every uid the map's tiles on disk use, once the worker has read them all.
    disk: Arc<Mutex<Option<Arc<DiskUids>>>>,
    /// The map's uniqueId range, when it has one.
    range: Option<UidRange>,
}

impl UidAllocator {
    /// The map's uniqueId range, when it has one.
    pub fn range(&self) -> Option<UidRange> {
        self.range
    }

    /// The uids of the map's tiles on disk, once the scan started when the map opened is done.
    pub fn disk_uids(&self) -> Option<Arc<DiskUids>> {
        self.disk.lock().ok().and_then(|g| g.clone())
    }

    /// Starts over for `session` (a map was opened): reads its range file, and starts a
    /// worker reading the uniqueIds of every tile on disk, which calls `wake` when done.
    /// Returns what the status line should say when something went wrong.
    pub fn start(
        &mut self,
        session: Option<&Session>,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Option<String> {
        let cell = Arc::new(Mutex::new(None));
        self.disk = cell.clone();
        let s = session?;
        let mut message = None;
        self.range = match crate::disk::uid_range::read(&s.folder, &s.map.name) {
            Ok(r) => r,
            Err(e) => {
                message = Some(e.to_string());
                None
            }
        };
        let source = s.tiles.clone();
        let coords: Vec<_> = s.on_disk.iter().copied().collect();
        let spawned = std::thread::Builder::new()
            .name("loam-uid-scan".into())
            .spawn(move || {
                let all = source.map(|s| s.uid_tiles(&coords)).unwrap_or_default();
                if let Ok(mut g) = cell.lock() {
                    *g = Some(Arc::new(all));
                }
                wake();
            });
        if spawned.is_err() {
            message = Some("could not start reading the map's uniqueIds: placing is off".into());
        }
        message
    }

    /// Sets the range of `session`'s map and stores it beside the map (`None` removes it).
    /// Returns what the status line says.
    pub fn set_range(&mut self, session: &Session, range: Option<(u32, u32)>) -> String {
        let range = match range.map(|(a, b)| UidRange::new(a, b)).transpose() {
            Ok(r) => r,
            Err(e) => return e,
        };
        let (folder, name) = (&session.folder, &session.map.name);
        match crate::disk::uid_range::write(folder, name, range) {
            Ok(()) => {
                self.range = range;
                match range {
                    Some(r) => format!(
                        "new objects take uniqueIds {}-{} (kept in {})",
                        r.first,
                        r.last,
                        crate::disk::uid_range::path(folder, name).display()
                    ),
                    None => "new objects take uniqueIds above every one in the map".into(),
                }
            }
            Err(e) => e.to_string(),
        }
    }

    /// A uniqueId for a new object of `session`'s map, not in `taken` either; an error while
    /// the worker is still reading the tiles on disk, or when the range is used up.
    pub fn fresh(&self, session: Option<&Session>, taken: &[u32]) -> Result<u32, String> {
        let s = session.ok_or("no map is open")?;
        let disk = self
            .disk_uids()
            .ok_or("still reading the map's uniqueIds: try again in a moment")?;
        let memory = objects::unique_ids(&s.map);
        objects::next_unique_id_in(
            disk.keys()
                .copied()
                .chain(memory.into_iter().map(|(_, u)| u))
                .chain(taken.iter().copied()),
            self.range,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn new_uids_wait_for_the_scan_then_clear_every_uid_on_disk_and_keep_to_the_range() {
        let dir = tempfile::tempdir().unwrap();
        crate::sample::write_sample(dir.path()).unwrap();
        // Only the WDT is read: the uids of the tiles come from the scan, not from memory.
        let s = Session::open(&dir.path().join("Sample.wdt")).unwrap();
        assert!(s.map.tiles.is_empty());
        let mut uids = UidAllocator::default();
        assert!(uids.fresh(Some(&s), &[]).is_err(), "no scan yet");
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let wake = Arc::new(move || {
            let _ = tx.lock().map(|t| t.send(()));
        });
        assert_eq!(uids.start(Some(&s), wake), None);
        rx.recv_timeout(Duration::from_secs(60)).unwrap();
        let on_disk = uids.disk_uids().unwrap();
        let highest = *on_disk.keys().max().unwrap();
        assert_eq!(uids.fresh(Some(&s), &[]), Ok(highest + 1));
        assert_eq!(uids.fresh(Some(&s), &[highest + 1]), Ok(highest + 2));

        let first = highest + 1000;
        let note = uids.set_range(&s, Some((first, first + 1)));
        assert!(note.contains(&format!("{first}-{}", first + 1)), "{note}");
        assert_eq!(uids.fresh(Some(&s), &[]), Ok(first));
        assert!(
            uids.fresh(Some(&s), &[first, first + 1]).is_err(),
            "range used up"
        );
        // The range file is read back when the map opens again.
        let mut again = UidAllocator::default();
        let (tx, _rx) = mpsc::channel::<()>();
        let tx = Mutex::new(tx);
        again.start(
            Some(&s),
            Arc::new(move || drop(tx.lock().map(|t| t.send(())))),
        );
        assert_eq!(
            again.range().map(|r| (r.first, r.last)),
            Some((first, first + 1))
        );
    }
}
