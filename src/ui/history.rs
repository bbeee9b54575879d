//! The history panel: every undo step by name, the current one marked; a click goes there.

use crate::command::{Command, Intent};

/// Shows the steps (`labels`, oldest first, `applied` of them in effect).
pub fn show(ui: &mut egui::Ui, labels: &[String], applied: usize, can_redo: bool) -> Vec<Intent> {
    let mut out = Vec::new();
    ui.heading("History");
    ui.horizontal(|ui| {
        if ui
            .add_enabled(applied > 0, egui::Button::new("Undo"))
            .clicked()
        {
            out.push(Intent::Command(Command::Undo));
        }
        if ui
            .add_enabled(can_redo, egui::Button::new("Redo"))
            .clicked()
        {
            out.push(Intent::Command(Command::Redo));
        }
    });
    if ui.selectable_label(applied == 0, "Opened").clicked() {
        out.push(Intent::HistoryGoTo(0));
    }
    egui::ScrollArea::vertical()
        .max_height(140.0)
        .show(ui, |ui| {
            for (i, label) in labels.iter().enumerate() {
                let text = if i < applied {
                    egui::RichText::new(label)
                } else {
                    egui::RichText::new(label).weak()
                };
                if ui.selectable_label(i + 1 == applied, text).clicked() {
                    out.push(Intent::HistoryGoTo(i + 1));
                }
            }
        });
    out
}
