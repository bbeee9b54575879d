//! The texture rules' mask previewed under the cursor: with the Rules or the Biome tool and
//! no stroke under way, coloured dots over the ground inside the brush show which rule would
//! lie on top there (each rule in its colour, the one the rule list shows beside it), as
//! strong as the rule's share times the brush's weight.
//!
//! Not for: what the rules lay (`edit::terrain::rules_preview`, `rules_ops`).

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::command::Intent;
use crate::edit::terrain::rules_preview::preview;
use crate::edit::tools::Tool;
use crate::render::marks::Marks;

/// The mask preview (no state: it follows the cursor each frame).
#[derive(Debug, Default)]
pub struct MaskPreview;

impl Component for MaskPreview {
    fn handle(&mut self, intent: Intent, _cx: &mut AppCtx) -> Option<Intent> {
        Some(intent)
    }

    fn over_view(&mut self, ui: &mut egui::Ui, view: egui::Rect, cx: &mut AppCtx) -> Vec<Intent> {
        let settings = &cx.doc.editing.settings;
        let rules = match settings.tool {
            Tool::TextureRules => &settings.rules,
            Tool::Biome => &settings.biome.rules,
            _ => return Vec::new(),
        };
        // Where the brush circle is drawn (`overlays`): a screenshot's at the script's last
        // point, not the mouse's.
        let at = cx
            .view
            .hover
            .filter(|_| !cx.shell.screenshot)
            .map(|p| p.world)
            .or(cx.view.shown_cursor)
            .map(|p| [p[0], p[1]]);
        let (Some(at), Some(s)) = (at, &cx.doc.session) else {
            return Vec::new();
        };
        if rules.is_empty() || cx.doc.editing.is_stroking() {
            return Vec::new();
        }
        let aspect = view.width() / view.height().max(1.0);
        let vp = cx.view.camera.view_projection(aspect);
        let mut marks = Marks::default();
        for p in preview(&s.map, &settings.brush, rules, at) {
            let [r, g, b] = crate::ui::rules_panel::rule_colour(p.rule);
            let alpha = (p.strength.clamp(0.0, 1.0) * 230.0) as u8;
            if alpha > 8 {
                marks.dot(vp, p.at, 2.0, [r, g, b, alpha]);
            }
        }
        crate::ui::marks::paint(ui.painter(), view, &marks);
        Vec::new()
    }
}
