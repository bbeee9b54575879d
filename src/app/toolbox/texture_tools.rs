//! The Edit ▸ Textures… dialog as a component: its form while open, and the texture
//! operation it asks the shell to run through the one op runner (`app::toolbox::operation_runs`), as
//! one undo step, exactly as `loam apply` runs `texture_swap`, `texture_remove`,
//! `texture_remove_unused` and `texture_effect`.

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::command::{Command, Intent, TexturesIntent};
use crate::doc::Document;
use crate::edit::ops::{Operation, OpsFile};
use crate::edit::terrain::texture_ops::TextureOp;
use crate::ui::dialogs::textures::{TextureAction, TextureForm, TextureScope};

/// The dialog's state.
#[derive(Debug, Default)]
pub struct TextureTools {
    form: Option<TextureForm>,
    /// The last form applied: the dialog reopens with its choices.
    last: TextureForm,
    pending: Option<OpsFile>,
}

/// The texture operation `form` describes over the tiles it names.
fn operation(form: &TextureForm, doc: &Document) -> Result<TextureOp, String> {
    let s = doc.session.as_ref().ok_or("no map is open")?;
    let tiles: Vec<[u8; 2]> = match form.scope {
        TextureScope::Tile => vec![form.tile],
        TextureScope::Loaded => s.map.tiles.keys().map(|t| [t.x, t.y]).collect(),
        TextureScope::Map => s.map.present_tiles().iter().map(|t| [t.x, t.y]).collect(),
    };
    let op = TextureOp {
        tool: match form.action {
            TextureAction::Swap => "texture_swap",
            TextureAction::Remove => "texture_remove",
            TextureAction::RemoveUnused => "texture_remove_unused",
            TextureAction::Effect => "texture_effect",
        }
        .to_string(),
        from: form.from.trim().to_string(),
        to: form.to.trim().to_string(),
        texture: form.from.trim().to_string(),
        effect: (form.action == TextureAction::Effect).then_some(form.effect),
        tiles: Some(tiles),
        points: None,
        radius: None,
    };
    op.validate()?;
    Ok(op)
}

impl Component for TextureTools {
    /// Carries out the Textures intents; the dialog opens on the tile under the cursor.
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        let t = match intent {
            Intent::Command(Command::Textures) => TexturesIntent::Open,
            Intent::Textures(t) => t,
            other => return Some(other),
        };
        let hover = cx.view.hover.map(|p| p.tile);
        match t {
            TexturesIntent::Open => {
                let Some(s) = &cx.doc.session else {
                    return None;
                };
                let tile = hover.or_else(|| s.map.tiles.keys().next().copied());
                let mut form = self.form.take().unwrap_or_else(|| self.last.clone());
                if let Some(t) = tile {
                    form.tile = [t.x, t.y];
                }
                self.form = Some(form);
            }
            TexturesIntent::Cancel => self.form = None,
            TexturesIntent::Apply => {
                let Some(form) = &self.form else { return None };
                match operation(form, &cx.doc) {
                    Ok(op) => {
                        self.pending = Some(OpsFile {
                            ops: vec![Operation::Texture(op)],
                            folder: None,
                        });
                        self.last = self.form.take().unwrap_or_default();
                    }
                    Err(e) => cx.shell.message = Some(format!("cannot apply: {e}")),
                }
            }
        }
        None
    }

    /// Draws the dialog while it is open.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut AppCtx) -> Vec<Intent> {
        let doc = &cx.doc;
        let Some(form) = &mut self.form else {
            return Vec::new();
        };
        let mut textures: Vec<String> = doc
            .session
            .iter()
            .flat_map(|s| s.map.tiles.values())
            .flat_map(|t| t.textures.iter().cloned())
            .collect();
        textures.sort_by_key(|t| t.to_ascii_lowercase());
        textures.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        let effects = doc.client.as_ref().map(|c| c.ground_effects.clone());
        let effects = effects.as_deref().map_or(&[][..], |e| e.list());
        crate::ui::dialogs::textures::show(ui, form, &textures, effects)
    }

    /// The operation the user asked for, once: the shell runs it.
    fn take_ops(&mut self) -> Option<OpsFile> {
        self.pending.take()
    }
}
