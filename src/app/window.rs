//! The window as a component: its title (the open map and its generation), quitting (asking
//! first when there are unsaved changes, unless a screenshot run closes it) and the status
//! line's Dismiss.
//!
//! Not for: what quitting keeps (`eframe::App::save` and `on_exit` in the shell).

use super::component::Component;
use super::context::AppCtx;
use crate::command::{Command, Intent};
use crate::ui;

/// The window's component (its state is the context's shell).
#[derive(Debug, Default)]
pub struct Window;

impl Component for Window {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::Command(Command::Quit) => {
                cx.egui.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            Intent::ConfirmQuit(quit) => {
                cx.shell.confirm_quit = false;
                if quit {
                    cx.shell.quit_confirmed = true;
                    cx.egui.send_viewport_cmd(egui::ViewportCommand::Close);
                }
            }
            Intent::Command(Command::DismissMessage) => cx.shell.message = None,
            other => return Some(other),
        }
        None
    }

    /// Keeps the title up to date, and asks before closing with unsaved changes.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut AppCtx) -> Vec<Intent> {
        let ctx = ui.ctx();
        if ctx.input(|i| i.viewport().close_requested())
            && !cx.shell.quit_confirmed
            && cx.has_unsaved()
            // A screenshot run closes by itself; there is nobody to answer.
            && !cx.shell.screenshot
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            cx.shell.confirm_quit = true;
        }
        let title = match &cx.doc.session {
            Some(s) => format!("loam — {} ({})", s.map.name, s.generation),
            None => "loam".to_string(),
        };
        if title != cx.shell.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            cx.shell.title = title;
        }
        if !cx.shell.confirm_quit {
            return Vec::new();
        }
        let unsaved = cx.doc.session.as_ref().map_or(0, |s| s.edited.len());
        ui::dialogs::confirm_quit(ui, unsaved)
    }
}
