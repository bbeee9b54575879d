//! Autosave as a component: the clock that writes the open map's unsaved tiles aside (through
//! the context's [`crate::app::recovery::Recovery`]), and the dialog that offers back what a crash
//! left: restore, discard, or ask again on the next start.
//!
//! Not for: the recovery folders and the autosave's worker (`app::recovery`,
//! `pipeline::recovery`) or the dialog's widgets (`ui::dialogs::restore`).

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::app::recovery::{Restored, restore_view};
use crate::command::Intent;
use crate::edit::History;
use crate::ui;

/// The autosave's component (the autosave itself is the context's: saving and opening maps
/// reach it too).
#[derive(Debug, Default)]
pub struct Autosave;

impl Component for Autosave {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::RestoreRecovered(i) => restore(cx, i),
            Intent::DiscardRecovered(i) => {
                if let Some(why) = cx.recovery.as_mut().and_then(|r| r.discard_offer(i)) {
                    cx.shell.message = Some(why);
                }
            }
            Intent::RecoverLater(i) => {
                if let Some(r) = &mut cx.recovery {
                    r.take_offer(i);
                }
            }
            other => return Some(other),
        }
        None
    }

    /// The first recovered map's offer, unless the quit question is up.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut AppCtx) -> Vec<Intent> {
        if cx.shell.confirm_quit {
            return Vec::new();
        }
        match cx.recovery.as_ref().and_then(|r| r.offers.first()) {
            Some(offer) => ui::dialogs::restore(ui, &restore_view(offer)),
            None => Vec::new(),
        }
    }

    /// Autosaves when due and wakes the window for the next.
    fn poll(&mut self, cx: &mut AppCtx) -> Vec<Intent> {
        let busy = cx.doc.editing.is_stroking() || cx.busy;
        let Some(r) = &mut cx.recovery else {
            return Vec::new();
        };
        let (message, next) = r.tick(
            cx.doc.session.as_mut(),
            &cx.doc.editing.history,
            cx.streams.session_id,
            busy,
            cx.settings.autosave_secs,
        );
        if message.is_some() {
            cx.shell.message = message;
        }
        if let Some(next) = next {
            cx.egui.request_repaint_after(next);
        }
        Vec::new()
    }
}

/// Opens the map of recovered offer `index` with its autosaved tiles as unsaved edits.
fn restore(cx: &mut AppCtx, index: usize) {
    let restored = match cx.recovery.as_mut().and_then(|r| r.restore(index)) {
        None => return,
        Some(Err(why)) => {
            cx.shell.message = Some(why);
            return;
        }
        Some(Ok(r)) => r,
    };
    let Restored {
        session,
        tiles,
        source,
        dir,
        history,
        note,
    } = restored;
    // Read as the autosave's generation; the remembered "Read as" choice stays as it was.
    let remembered = cx.settings.read_as_for(&source);
    cx.install(&source, remembered, session);
    cx.then(move |cx| {
        let Some(s) = &mut cx.doc.session else {
            return;
        };
        let touched = s.take_recovered(tiles);
        let mut zone_note = None;
        // The history over the autosaved tiles (the state its last autosave saw): Undo walks
        // back from them to the map as it was opened.
        if let Some((steps, state)) = history {
            // The tables the zone tools edited are not in the snapshot: read them from the
            // client again (as the map was opened) and put the applied steps' rows back, so
            // that undoing those steps finds them.
            let names: std::collections::BTreeSet<&str> =
                steps.iter().flat_map(|e| e.table_names()).collect();
            if let Some(Ok(client)) = cx.doc.client.as_ref().map(|c| &c.opened)
                && !names.is_empty()
            {
                let names: Vec<&str> = names.into_iter().collect();
                match crate::doc::zone::hold(&mut s.map, client, &names) {
                    Ok(()) => {
                        for e in steps.iter().take(state.head as usize) {
                            e.apply_tables(&mut s.map, true);
                        }
                    }
                    Err(e) => zone_note = Some(format!("the zone's tables were not restored: {e}")),
                }
            }
            cx.doc.editing.history = History::from_journal(
                &mut s.map,
                steps,
                &state,
                crate::edit::history::DEFAULT_BUDGET,
            );
        }
        if let Some(r) = &mut cx.recovery {
            r.adopt(dir);
        }
        cx.after_edit(touched);
        cx.shell.message = Some(match zone_note {
            Some(z) => format!("{note}; {z}"),
            None => note,
        });
    });
}
