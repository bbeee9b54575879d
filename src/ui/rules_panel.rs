//! The Texture rules tool's rule list: each rule's texture and limits (slope, height, noise)
//! and its blend, in order, the ground first; rules added, removed and moved.
//!
//! Not for: the brush's settings (`tool_panel`) or what rules do (`edit::terrain::rules`).

use egui::{ComboBox, DragValue};

use crate::edit::terrain::rules::{Rule, RuleNoise};

/// The colours the mask preview draws the rules in, in the list's order (then again).
const RULE_COLOURS: [[u8; 3]; 8] = [
    [80, 200, 80],
    [230, 80, 60],
    [250, 210, 70],
    [70, 150, 250],
    [220, 110, 230],
    [90, 230, 220],
    [250, 150, 60],
    [240, 240, 240],
];

/// Rule `i`'s colour in the mask preview and beside it in the list.
pub fn rule_colour(i: usize) -> [u8; 3] {
    RULE_COLOURS[i % RULE_COLOURS.len()]
}

/// Shows the rules, editing them in place; `textures` are the tile's to pick from.
pub fn show(ui: &mut egui::Ui, rules: &mut Vec<Rule>, textures: &[String]) {
    ui.label("Rules (the first is the ground; each later one lies over those above it)");
    ui.weak("Under the cursor, dots in each rule's colour show where it would lie on top.");
    let mut remove = None;
    let mut raise = None;
    for (i, rule) in rules.iter_mut().enumerate() {
        ui.push_id(i, |ui| {
            ui.separator();
            // Narrow rows: the panel keeps its width, so the view does not jump when the
            // tool is chosen.
            ui.horizontal(|ui| {
                let [r, g, b] = rule_colour(i);
                let (swatch, _) =
                    ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                ui.painter()
                    .rect_filled(swatch, 2.0, egui::Color32::from_rgb(r, g, b));
                let label = ui.label(format!("Rule {}", i + 1));
                ui.add(
                    egui::TextEdit::singleline(&mut rule.texture)
                        .desired_width(ui.available_width()),
                )
                .labelled_by(label.id);
            });
            ui.horizontal(|ui| {
                ComboBox::from_label("Texture of the tile")
                    .selected_text("Pick")
                    .show_ui(ui, |ui| {
                        for t in textures {
                            let short = t.rsplit(['\\', '/']).next().unwrap_or(t);
                            ui.selectable_value(&mut rule.texture, t.clone(), short);
                        }
                    });
                if i > 0 && ui.small_button("Up").on_hover_text("Move up").clicked() {
                    raise = Some(i);
                }
                if ui
                    .small_button("Remove")
                    .on_hover_text("Remove the rule")
                    .clicked()
                {
                    remove = Some(i);
                }
            });
            range(ui, "Slope (°)", &mut rule.slope, [30.0, 90.0]);
            range(ui, "Height (yd)", &mut rule.height, [-1000.0, 10.0]);
            let mut noisy = rule.noise.is_some();
            ui.horizontal(|ui| {
                ui.checkbox(&mut noisy, "Noise");
                match (&mut rule.noise, noisy) {
                    (Some(n), true) => {
                        ui.add(
                            DragValue::new(&mut n.scale)
                                .prefix("scale ")
                                .range(1.0..=500.0),
                        );
                        ui.add(
                            DragValue::new(&mut n.threshold)
                                .prefix("above ")
                                .speed(0.01)
                                .range(0.0..=1.0),
                        );
                        ui.add(DragValue::new(&mut n.seed).prefix("seed "));
                    }
                    (None, true) => {
                        rule.noise = Some(RuleNoise {
                            scale: 25.0,
                            threshold: 0.6,
                            seed: 0,
                        })
                    }
                    (Some(_), false) => rule.noise = None,
                    (None, false) => {}
                }
            });
            ui.add(
                DragValue::new(&mut rule.blend)
                    .prefix("blend ")
                    .speed(0.1)
                    .range(0.0..=90.0),
            );
        });
    }
    if let Some(i) = remove {
        rules.remove(i);
    }
    if let Some(i) = raise {
        rules.swap(i - 1, i);
    }
    if ui.button("Add rule").clicked() {
        rules.push(Rule {
            texture: textures.first().cloned().unwrap_or_default(),
            slope: None,
            height: None,
            noise: None,
            blend: 0.0,
        });
    }
}

/// A limit's checkbox and, when on, its two ends.
fn range(ui: &mut egui::Ui, label: &str, limit: &mut Option<[f32; 2]>, start: [f32; 2]) {
    ui.horizontal(|ui| {
        let mut on = limit.is_some();
        ui.checkbox(&mut on, label);
        match (limit.as_mut(), on) {
            (Some([lo, hi]), true) => {
                ui.add(DragValue::new(lo).prefix("from "));
                ui.add(DragValue::new(hi).prefix("to "));
                if *lo > *hi {
                    std::mem::swap(lo, hi);
                }
            }
            (None, true) => *limit = Some(start),
            (Some(_), false) => *limit = None,
            (None, false) => {}
        }
    });
}
