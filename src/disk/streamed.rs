//! A file too big to build in memory (a monolithic WDT of a whole continent), written to a
//! temp file piece by piece and renamed over its target only when complete.
//!
//! Not for: what the pieces are (see `pipeline::stream`).

use std::fs::{self, File};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::atomic::finish_in_place;
use super::{Result, io_err, temp_path};

/// A file written in place and renamed over its target only when complete: a temp file in the
/// target folder, appended to piece by piece (a monolithic WDT, tile by tile), with patches
/// (its MAIN entries) written at their offsets at the end.
pub struct StreamedFile {
    tmp: PathBuf,
    path: PathBuf,
    file: Option<File>,
    len: usize,
    patches: Vec<(u64, [u8; 8])>,
    /// Asks a thread to flush what was written so far, so that the disk works while tiles
    /// encode instead of all at the end (a gigabyte takes seconds to reach the disk).
    flush: Option<std::sync::mpsc::Sender<()>>,
    flusher: Option<std::thread::JoinHandle<()>>,
    unflushed: usize,
}

/// Bytes written between two background flushes of a monolithic file.
const FLUSH_EVERY: usize = 64 << 20;

impl StreamedFile {
    /// Starts the temp file beside `path`.
    pub fn create(path: &Path) -> Result<StreamedFile> {
        let tmp = temp_path(path)?;
        // Errors name the target, the file the user knows.
        let file = File::create(&tmp).map_err(io_err(path))?;
        let (flush, asks) = std::sync::mpsc::channel::<()>();
        // Without a second handle or thread the final flush does it all; errors surface there.
        let flusher = file.try_clone().ok().and_then(|f| {
            std::thread::Builder::new()
                .name("loam-flush".into())
                .spawn(move || {
                    while asks.recv().is_ok() {
                        while asks.try_recv().is_ok() {}
                        let _ = f.sync_data();
                    }
                })
                .ok()
        });
        Ok(StreamedFile {
            tmp,
            path: path.to_path_buf(),
            file: Some(file),
            len: 0,
            patches: Vec::new(),
            flush: flusher.is_some().then_some(flush),
            flusher,
            unflushed: 0,
        })
    }

    /// Bytes written so far: the offset the next write lands at.
    pub fn end(&self) -> usize {
        self.len
    }

    /// Appends `bytes`.
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        let Some(f) = self.file.as_mut() else {
            return Ok(());
        };
        f.write_all(bytes).map_err(io_err(&self.path))?;
        self.len += bytes.len();
        self.unflushed += bytes.len();
        if self.unflushed >= FLUSH_EVERY
            && let Some(tx) = &self.flush
        {
            let _ = tx.send(());
            self.unflushed = 0;
        }
        Ok(())
    }

    /// Overwrites 8 bytes at `at` when the file is finished (a header entry known only once
    /// what it points to is written).
    pub fn patch(&mut self, at: u64, bytes: [u8; 8]) {
        self.patches.push((at, bytes));
    }

    /// Applies the patches, flushes and renames the file over its target.
    pub fn finish(mut self) -> Result<()> {
        self.stop_flusher();
        let Some(mut f) = self.file.take() else {
            return Ok(());
        };
        let tmp = self.tmp.clone();
        let path = self.path.clone();
        let result = (|| {
            for (at, bytes) in &self.patches {
                f.seek(SeekFrom::Start(*at)).map_err(io_err(&path))?;
                f.write_all(bytes).map_err(io_err(&path))?;
            }
            Ok(())
        })();
        match result {
            Ok(()) => finish_in_place(f, &tmp, &path),
            Err(e) => {
                drop(f);
                let _ = fs::remove_file(&tmp);
                Err(e)
            }
        }
    }
}

impl StreamedFile {
    fn stop_flusher(&mut self) {
        drop(self.flush.take());
        if let Some(h) = self.flusher.take() {
            let _ = h.join();
        }
    }
}

impl Drop for StreamedFile {
    fn drop(&mut self) {
        self.stop_flusher();
        // Unfinished (an error on the way): the target was never touched; drop the temp file.
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}
