//! File ▸ Save as…: the dialog's state (target generation, folder, whether to write the WDL),
//! the conversion report for each target as it is read, and the write.
//!
//! Not for: the streamed write itself (`doc::session`, `pipeline::stream`) or the dialog's
//! widgets (`ui::dialogs`).

use std::path::PathBuf;
use std::time::Duration;

use super::dialogs::FileDialogs;
use super::save_as_report::{ReportState, SaveAsReports};
use crate::command::Intent;
use crate::doc::session::Session;
use crate::format::Generation;
use crate::ui;

/// The dialog's state while it is up.
#[derive(Debug)]
struct Dialog {
    target: Generation,
    folder: Option<PathBuf>,
    reports: SaveAsReports,
    /// Write the map's WDL with it (on by default).
    wdl: bool,
}

/// The Save as… component: the dialog, when up.
#[derive(Debug, Default)]
pub struct SaveAs {
    dialog: Option<Dialog>,
}

impl SaveAs {
    /// True while the dialog is up.
    pub fn is_shown(&self) -> bool {
        self.dialog.is_some()
    }

    /// Closes the dialog (a new map was opened).
    pub fn close(&mut self) {
        self.dialog = None;
    }

    /// Shows the dialog for `session` with the report for the map's own generation (or 3.3.5
    /// when that one cannot be written).
    pub fn open(&mut self, session: &Session) {
        // The report and the write cover the whole map, read from disk a tile at a time, not
        // only what is near.
        let target = if session.generation.writable() {
            session.generation
        } else {
            Generation::V335
        };
        // Reports are made afresh each time the dialog opens: edits change them.
        let mut reports = SaveAsReports::default();
        reports.request(session, target);
        self.dialog = Some(Dialog {
            target,
            folder: None,
            reports,
            wdl: true,
        });
    }

    /// Carries out the dialog's intents but the write (see [`SaveAs::write`]).
    pub fn handle(&mut self, intent: Intent, session: &Session, dialogs: &mut dyn FileDialogs) {
        match intent {
            Intent::SaveAsDialog => self.open(session),
            Intent::SaveAsTarget(g) => {
                if let Some(d) = &mut self.dialog {
                    d.target = g;
                    d.reports.request(session, g);
                }
            }
            Intent::SaveAsPickFolder => {
                if let Some(f) = dialogs.pick_folder()
                    && let Some(d) = &mut self.dialog
                {
                    d.folder = Some(f);
                }
            }
            Intent::SaveAsCancel => self.dialog = None,
            Intent::SaveAsWdl(on) => {
                if let Some(d) = &mut self.dialog {
                    d.wdl = on;
                }
            }
            _ => {}
        }
    }

    /// Writes `session` as the dialog says, and closes it when that worked. Returns the status
    /// line's text, or why it failed; `None` when there is nothing to write yet (no folder).
    pub fn write(&mut self, session: &mut Session) -> Option<Result<String, String>> {
        let d = self.dialog.as_ref()?;
        let folder = d.folder.clone()?;
        Some(match session.save_as(&folder, d.target) {
            Ok(sum) => {
                let wdl = match d.wdl {
                    true => session.write_wdl_after_save_as(),
                    false => String::new(),
                };
                let note = format!(
                    "wrote {} file(s) as {} to {}{wdl}",
                    sum.files,
                    d.target,
                    sum.folder.display()
                );
                self.dialog = None;
                Ok(note)
            }
            Err(e) => Err(format!("save as failed: {e}")),
        })
    }

    /// Draws the dialog when it is up, for the open map `session`.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &Session) -> Vec<Intent> {
        let Some(d) = &mut self.dialog else {
            return Vec::new();
        };
        if d.reports.poll() {
            // The progress bar moves, and the finished report shows, without input.
            ui.ctx().request_repaint_after(Duration::from_millis(100));
        }
        let (report, reading) = match d.reports.state(d.target) {
            ReportState::Ready(lines) => (lines.to_vec(), None),
            ReportState::Reading { read, total } => (Vec::new(), Some((read, total))),
        };
        let view = ui::dialogs::SaveAsView {
            targets: Session::save_targets(),
            target: d.target,
            current: session.generation,
            folder: d.folder.clone(),
            report,
            reading,
            wdl: d.wdl,
        };
        ui::dialogs::save_as(ui, &view)
    }
}
