//! The one shape of an app component (the object tool, the asset browser, each dialog, the
//! brushes…): it carries out the intents that are its own with the one context
//! (`app::context`), draws its windows, polls its workers, and hands over the scripted
//! operations it wants run; the shell calls every component through this trait, from one list.
//!
//! Not for: a component's state (its own file) or the order the shell calls them in
//! (`app/mod.rs`).

use super::context::AppCtx;
use crate::assets::textures::ByteSource;
use crate::command::Intent;
use crate::edit::ops::OpsFile;
use crate::ui::viewport::ViewportInput;

/// A part of the editor with state of its own, reached by the shell only through these calls.
/// All but [`Component::handle`] do nothing unless the component has something to do then.
pub trait Component {
    /// Carries out `intent` when it is this component's; hands it back (or the intent it
    /// becomes, for the components after this one) otherwise.
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent>;

    /// Draws the component's windows for this frame; returns what they ask for.
    fn ui(&mut self, _ui: &mut egui::Ui, _cx: &mut AppCtx) -> Vec<Intent> {
        Vec::new()
    }

    /// Draws over the 3D view (`view`: where it is on screen), after it; returns what that
    /// asks for.
    fn over_view(
        &mut self,
        _ui: &mut egui::Ui,
        _view: egui::Rect,
        _cx: &mut AppCtx,
    ) -> Vec<Intent> {
        Vec::new()
    }

    /// Takes in what the component's workers finished; returns the intents that follow.
    fn poll(&mut self, _cx: &mut AppCtx) -> Vec<Intent> {
        Vec::new()
    }

    /// Follows this frame's pointer in the 3D view, when the component's tool is the tool.
    fn drive(&mut self, _input: &ViewportInput, _cx: &mut AppCtx) {}

    /// The scripted operations the component asked for, once: the shell runs them through
    /// the one op runner, each an undo step.
    fn take_ops(&mut self) -> Option<OpsFile> {
        None
    }

    /// True while an edit of the component's is under way that undo and autosave wait for.
    fn is_busy(&self) -> bool {
        false
    }

    /// Another map was opened: what belonged to the old one goes.
    fn opened(&mut self, _cx: &mut AppCtx) {}

    /// The open map or the client changed, so its bytes now come through `source`: what was
    /// read through the old one goes.
    fn sources_changed(&mut self, _cx: &mut AppCtx, _source: &ByteSource) {}
}
