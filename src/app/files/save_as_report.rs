//! The Save as… dialog's conversion reports: one per target, computed once while the dialog is
//! open, and off the UI thread when it reads many tiles from disk (a continent's 687 tiles take
//! seconds), with the tiles read so far for a progress bar.
//!
//! Not for: what the report says (`convert`, `Session::report_input`) or the dialog's widgets
//! (`ui::dialogs`).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::convert::Report;
use crate::doc::session::Session;
use crate::format::Generation;

/// Tiles a report may read on the UI thread: a handful take milliseconds, and the dialog then
/// opens with its report; more go to a thread of their own.
const READ_AT_ONCE: usize = 16;

/// The reports asked for since the dialog opened, by target.
#[derive(Debug, Default)]
pub(in crate::app) struct SaveAsReports {
    jobs: BTreeMap<Generation, Job>,
}

#[derive(Debug)]
enum Job {
    Reading {
        read: Arc<AtomicUsize>,
        total: usize,
        result: mpsc::Receiver<Report>,
    },
    Done(Vec<String>),
}

/// Where one target's report stands.
pub(in crate::app) enum ReportState<'a> {
    /// Its lines.
    Ready(&'a [String]),
    /// Tiles read from disk so far, of how many.
    Reading { read: usize, total: usize },
}

impl SaveAsReports {
    /// Starts the report for `to` unless it was asked for already.
    pub(in crate::app) fn request(&mut self, session: &Session, to: Generation) {
        if self.jobs.contains_key(&to) {
            return;
        }
        let input = session.report_input(to);
        let total = input.tiles_to_read();
        if total <= READ_AT_ONCE {
            let report = input.run(&AtomicUsize::new(0));
            self.jobs.insert(to, Job::Done(report_lines(&report)));
            return;
        }
        let read = Arc::new(AtomicUsize::new(0));
        let (tx, result) = mpsc::channel();
        let counter = Arc::clone(&read);
        let spawned = std::thread::Builder::new()
            .name("loam-save-as-report".into())
            .spawn(move || {
                let _ = tx.send(input.run(&counter));
            });
        let job = match spawned {
            Ok(_) => Job::Reading {
                read,
                total,
                result,
            },
            Err(e) => Job::Done(vec![format!("the report could not be made: {e}")]),
        };
        self.jobs.insert(to, job);
    }

    /// Takes the reports that finished; true while any is still reading.
    pub(in crate::app) fn poll(&mut self) -> bool {
        let mut reading = false;
        for job in self.jobs.values_mut() {
            if let Job::Reading { result, .. } = job {
                match result.try_recv() {
                    Ok(report) => *job = Job::Done(report_lines(&report)),
                    Err(mpsc::TryRecvError::Empty) => reading = true,
                    Err(mpsc::TryRecvError::Disconnected) => {
                        *job = Job::Done(vec!["the report could not be made".into()]);
                    }
                }
            }
        }
        reading
    }

    /// Where the report for `to` stands (an empty report when it was never asked for).
    pub(in crate::app) fn state(&self, to: Generation) -> ReportState<'_> {
        match self.jobs.get(&to) {
            Some(Job::Done(lines)) => ReportState::Ready(lines),
            Some(Job::Reading { read, total, .. }) => ReportState::Reading {
                read: read.load(Ordering::Relaxed),
                total: *total,
            },
            None => ReportState::Ready(&[]),
        }
    }
}

/// The report's lines: one per kind of change, with its count.
fn report_lines(report: &Report) -> Vec<String> {
    if report.is_lossless() {
        return vec!["nothing changes".to_string()];
    }
    report
        .changes
        .iter()
        .map(|(what, n)| format!("{n:>6}  {what}"))
        .collect()
}
