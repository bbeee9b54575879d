//! Models that are drawn as placeholders, said where the user looks: a one-line notice over
//! the view (no client folder: choose one; a client set: how many it lacks, and the list), and
//! the list itself (paths, why, the tiles that place them), copyable.
//!
//! Not for: drawing placeholders (`render::objects`) or finding models (`app::scene::object_scene`).

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::app::scene::object_scene::{MissingModel, ObjectScene};
use crate::command::{Command, Intent};
use crate::doc::client::Client;
use crate::ui;

/// The notice's and the list's state.
#[derive(Debug, Default)]
pub struct MissingModels {
    /// The count of missing models when the user dismissed the notice: it stays away until
    /// more go missing.
    dismissed_at: Option<usize>,
    /// The list window is open.
    list_open: bool,
}

impl MissingModels {
    /// The notice over the view, if one is due: `client` is the chosen client folder, if any,
    /// `textures_missing` how many of the map's textures were not found.
    fn notice(
        &self,
        scene: &ObjectScene,
        client: Option<&Client>,
        textures_missing: usize,
    ) -> Option<ui::viewport::Notice> {
        let n = scene.missing_model_count();
        let count = Self::shown(n, client.is_some(), textures_missing);
        if count == 0 || self.dismissed_at.is_some_and(|d| count <= d) {
            return None;
        }
        let models = if n == 1 { "model" } else { "models" };
        let what = match (n, textures_missing) {
            (_, 0) => format!("{n} {models}"),
            (0, t) => format!("{t} texture(s)"),
            (_, t) => format!("{n} {models} and {t} texture(s)"),
        };
        Some(match client.map(|c| (c, &c.opened)) {
            // A folder that is not a game client is read as extracted files: say so, since
            // choosing the wrong folder looks just like a client without the models.
            Some((c, Err(why))) => ui::viewport::Notice {
                text: format!(
                    "{} {models} not found: {} is not a game client ({why}); it is read as a \
                     folder of extracted files.",
                    n,
                    c.dir.display()
                ),
                action_label: "Choose another client folder…".into(),
                action: Intent::Command(Command::PickClientData),
            },
            Some(_) => ui::viewport::Notice {
                text: format!("{n} {models} not found in the client or the map's folder"),
                action_label: "Show the list…".into(),
                action: Intent::ShowMissingModels(true),
            },
            None => ui::viewport::Notice {
                // "▸" is not in egui's default fonts: words only.
                text: format!("{what} not found: no game client folder is chosen."),
                action_label: "Choose the client folder…".into(),
                action: Intent::Command(Command::PickClientData),
            },
        })
    }

    /// What the notice counts: `models` missing, and without a client missing textures too.
    pub fn shown(models: usize, client_set: bool, textures_missing: usize) -> usize {
        models + if client_set { 0 } else { textures_missing }
    }

    /// The list window's content, while it is open.
    fn list(&self, scene: &ObjectScene) -> Option<ui::dialogs::MissingModelsView> {
        self.list_open.then(|| {
            let models = scene.missing_models();
            ui::dialogs::MissingModelsView {
                rows: models.iter().map(row).collect(),
                text: list_text(&models),
            }
        })
    }
}

/// One model's row: path, why, and "3 placed in 31_31 32_31".
fn row(m: &MissingModel) -> [String; 3] {
    let tiles: Vec<String> = m.tiles.iter().map(|t| format!("{}_{}", t.x, t.y)).collect();
    [
        m.name.clone(),
        m.why.clone(),
        format!("{} placed in {}", m.placements, tiles.join(" ")),
    ]
}

/// The list as text a user can paste into a message or a search: one model a line, with why,
/// how many objects place it and in which tiles, tab-separated.
fn list_text(models: &[MissingModel]) -> String {
    models
        .iter()
        .map(|m| row(m).join("\t"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Component for MissingModels {
    /// Carries out the notice's and the list's intents; the notice stays hidden, once
    /// dismissed, until it would count more than it does now.
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::ShowMissingModels(open) => self.list_open = open,
            Intent::Command(Command::DismissModelNotice) => {
                let shown = MissingModels::shown(
                    cx.streams.objects.missing_model_count(),
                    cx.doc.client.is_some(),
                    cx.streams.textures.missing_count(),
                );
                self.dismissed_at = Some(shown);
            }
            other => return Some(other),
        }
        None
    }

    /// The notice over the view, or the list it opens up into: one or the other.
    fn over_view(&mut self, ui: &mut egui::Ui, view: egui::Rect, cx: &mut AppCtx) -> Vec<Intent> {
        let list = self.list(&cx.streams.objects);
        let mut out = Vec::new();
        if cx.doc.session.is_some()
            && list.is_none()
            && let Some(n) = self.notice(
                &cx.streams.objects,
                cx.doc.client.as_ref(),
                cx.streams.textures.missing_count(),
            )
        {
            out.extend(ui::viewport::notice(ui, view, &n));
        }
        if let Some(list) = list {
            out.extend(ui::dialogs::missing_models(ui, &list));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TileCoord;

    #[test]
    fn the_list_names_each_model_why_and_where() {
        let m = MissingModel {
            name: "World\\Custom\\Tree.m2".into(),
            why: "not found".into(),
            placements: 3,
            tiles: [
                TileCoord::new(31, 31).unwrap(),
                TileCoord::new(32, 31).unwrap(),
            ]
            .into(),
        };
        assert_eq!(
            list_text(&[m]),
            "World\\Custom\\Tree.m2\tnot found\t3 placed in 31_31 32_31"
        );
    }
}
