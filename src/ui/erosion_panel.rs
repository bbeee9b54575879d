//! The Erode tool's own settings: thermal or hydraulic, and each one's parameters
//! (docs/terrain.md says what each does).
//!
//! Not for: the brush's settings (`tool_panel`) or running the erosion (`edit::terrain::erosion`).

use egui::{ComboBox, DragValue, Slider};

use super::labelled;
use crate::edit::terrain::erosion::{Erosion, Hydraulic};

/// Shows the erosion's settings, editing `erosion` in place.
pub fn show(ui: &mut egui::Ui, erosion: &mut Erosion) {
    let thermal = matches!(erosion, Erosion::Thermal { .. });
    ComboBox::from_label("Kind of erosion")
        .selected_text(if thermal { "Thermal" } else { "Hydraulic" })
        .show_ui(ui, |ui| {
            if ui.selectable_label(thermal, "Thermal").clicked() && !thermal {
                *erosion = Erosion::Thermal {
                    talus: 35.0,
                    iterations: 50,
                };
            }
            if ui.selectable_label(!thermal, "Hydraulic").clicked() && thermal {
                *erosion = crate::edit::tools::default_erosion();
            }
        });
    match erosion {
        Erosion::Thermal { talus, iterations } => {
            ui.add(Slider::new(talus, 1.0..=89.0).text("Talus angle (°)"));
            ui.add(Slider::new(iterations, 1..=500).text("Passes a dab"));
            ui.label(
                "Material slides until no slope under the brush is steeper than the talus angle.",
            );
        }
        Erosion::Hydraulic(h) => hydraulic(ui, h),
    }
}

fn hydraulic(ui: &mut egui::Ui, h: &mut Hydraulic) {
    ui.add(
        Slider::new(&mut h.droplets, 10..=20_000)
            .logarithmic(true)
            .text("Droplets a dab"),
    );
    ui.horizontal(|ui| {
        labelled(ui, "Seed", DragValue::new(&mut h.seed));
    });
    ui.add(Slider::new(&mut h.erosion, 0.0..=1.0).text("Erosion"));
    ui.add(Slider::new(&mut h.deposition, 0.0..=1.0).text("Deposition"));
    ui.add(Slider::new(&mut h.evaporation, 0.0..=0.2).text("Evaporation"));
    ui.add(Slider::new(&mut h.inertia, 0.0..=1.0).text("Inertia"));
    ui.add(Slider::new(&mut h.capacity, 0.0..=16.0).text("Capacity"));
}
