//! File ▸ Save and Save as… as a component: the plain save, the dialog's state (target
//! generation, folder, whether to write the WDL), the conversion report for each target as it
//! is read, and the write.
//!
//! Not for: the streamed write itself (`doc::session`, `pipeline::stream`) or the dialog's
//! widgets (`ui::dialogs`).

use std::path::PathBuf;
use std::time::Duration;

use super::save_as_report::{ReportState, SaveAsReports};
use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::app::file_picker::FileDialogs;
use crate::command::{Command, Intent, SaveAsIntent};
use crate::doc::client_maps;
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
}

impl SaveAs {
    /// Carries out the dialog's intents but the write, on the open `session`.
    fn dialog_intent(
        &mut self,
        intent: SaveAsIntent,
        session: &Session,
        dialogs: &mut dyn FileDialogs,
    ) {
        match intent {
            SaveAsIntent::Open => self.open(session),
            SaveAsIntent::Target(g) => {
                if let Some(d) = &mut self.dialog {
                    d.target = g;
                    d.reports.request(session, g);
                }
            }
            SaveAsIntent::PickFolder => {
                if let Some(f) = dialogs.pick_folder()
                    && let Some(d) = &mut self.dialog
                {
                    d.folder = Some(f);
                }
            }
            SaveAsIntent::Cancel => self.dialog = None,
            SaveAsIntent::Wdl(on) => {
                if let Some(d) = &mut self.dialog {
                    d.wdl = on;
                }
            }
            SaveAsIntent::Write => {}
        }
    }

    /// File ▸ Save: writes the edited tiles back in their generation (a map opened from the
    /// client is never written back there: the dialog asks for a folder instead); once
    /// everything is on disk the autosave has nothing left to keep.
    fn save(&mut self, cx: &mut AppCtx) {
        let Some(s) = &mut cx.doc.session else {
            return;
        };
        if client_maps::is_client_copy(&s.source) {
            cx.shell.message = Some("opened from the client: choose a folder to save into".into());
            self.open(s);
            return;
        }
        let edited = s.edited.clone();
        let saved = s.save();
        let everything = s.edited.is_empty();
        let unsaved = s.edited.len();
        cx.shell.message = Some(match saved {
            Ok(sum) => {
                cx.doc.editing.history.set_saved();
                let wdl = s.refresh_wdl(&edited).unwrap_or_default();
                format!(
                    "saved {} file(s) to {}{wdl}",
                    sum.files,
                    sum.folder.display()
                )
            }
            Err(e) => format!("save failed: {e}; {unsaved} tile(s) still unsaved, kept in memory"),
        });
        save_zone_tables(cx);
        if everything && let Some(r) = &mut cx.recovery {
            // Everything is on disk: nothing left to recover.
            if let Err(e) = r.discard_owned() {
                cx.shell.message = Some(e);
            }
        }
    }

    /// The dialog's Write: the map written where it says, remembered among the recent maps.
    fn save_as_write(&mut self, cx: &mut AppCtx) {
        let Some(s) = &mut cx.doc.session else {
            return;
        };
        match self.write(s) {
            None => {}
            Some(Err(why)) => cx.shell.message = Some(why),
            Some(Ok(note)) => {
                cx.shell.message = Some(note);
                let path = s.source.clone();
                cx.settings.add_recent(&path);
                if let Some(r) = &mut cx.recovery
                    && let Err(e) = r.discard_owned()
                {
                    cx.shell.message = Some(e);
                }
                save_zone_tables(cx);
            }
        }
    }
}

/// Writes the client's tables the Light and Triggers tools changed (`doc::zone::save_tables`)
/// and says where, after the save's own message; the client is opened again, so that what it
/// reads now is what was written.
fn save_zone_tables(cx: &mut AppCtx) {
    let (Some(s), Some(client)) = (&cx.doc.session, &cx.doc.client) else {
        return;
    };
    let Ok(data) = &client.opened else {
        return;
    };
    let said = cx.shell.message.take().unwrap_or_default();
    let (note, reopen) = match crate::doc::zone::save_tables(&s.map, data) {
        Ok(None) => (String::new(), false),
        Ok(Some(w)) => {
            let mut note = format!("; zone tables written to {}", w.archive.display());
            for warning in w.warnings {
                note.push_str(&format!("; {warning}"));
            }
            (note, true)
        }
        Err(e) => (format!("; zone tables NOT written: {e}"), false),
    };
    cx.shell.message = Some(format!("{said}{note}"));
    if reopen {
        let dir = client.dir.clone();
        cx.doc.client = Some(crate::doc::client::Client::open(&dir));
    }
}

impl Component for SaveAs {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        let intent = match intent {
            Intent::Command(Command::Save) => {
                self.save(cx);
                return None;
            }
            Intent::Command(Command::SaveAs) => SaveAsIntent::Open,
            Intent::SaveAs(SaveAsIntent::Write) => {
                self.save_as_write(cx);
                return None;
            }
            Intent::SaveAs(i) => i,
            other => return Some(other),
        };
        if let Some(s) = &cx.doc.session {
            self.dialog_intent(intent, s, cx.shell.dialogs.as_mut());
        }
        None
    }

    /// Draws the dialog when it is up.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut AppCtx) -> Vec<Intent> {
        let (Some(d), Some(session)) = (&mut self.dialog, &cx.doc.session) else {
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

    /// A new map was opened: the dialog was about the old one.
    fn opened(&mut self, _cx: &mut AppCtx) {
        self.close();
    }
}
