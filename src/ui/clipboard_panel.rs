//! The Copy & paste tool's panel: the rectangle selected, what the clipboard holds, the switch
//! between selecting and pasting, and how a paste turns, mirrors, meets the ground and what it
//! carries. It shows plain data and returns intents.

use egui::Slider;

use crate::command::{ClipboardIntent, Intent};
use crate::edit::copy::paste::{HeightMode, PasteLayer, PasteOptions};

/// What the panel shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClipboardView {
    /// The selected rectangle's size in quads (west-east, north-south), once one is dragged.
    pub selection: Option<[usize; 2]>,
    /// What the clipboard holds, described ("16×16 quads of Sample, 3 objects").
    pub held: Option<String>,
    /// Clicks paste (rather than drags select).
    pub pasting: bool,
    /// How the next pastes go.
    pub options: PasteOptions,
}

/// Each layer's name on its box.
fn layer_name(layer: PasteLayer) -> &'static str {
    match layer {
        PasteLayer::Heights => "Heights",
        PasteLayer::Textures => "Textures",
        PasteLayer::Colours => "Vertex colours",
        PasteLayer::Holes => "Holes",
        PasteLayer::Liquids => "Liquids",
        PasteLayer::Objects => "Objects",
    }
}

/// Shows the panel.
pub fn show(ui: &mut egui::Ui, view: &ClipboardView) -> Vec<Intent> {
    let mut out = Vec::new();
    ui.horizontal(|ui| {
        if ui.selectable_label(!view.pasting, "Select").clicked() {
            out.push(Intent::Clipboard(ClipboardIntent::Pasting(false)));
        }
        let paste = ui.add_enabled(
            view.held.is_some(),
            egui::Button::selectable(view.pasting, "Paste"),
        );
        if paste.clicked() {
            out.push(Intent::Clipboard(ClipboardIntent::Pasting(true)));
        }
    });
    ui.label(if view.pasting {
        "Click where the copy's north-west corner goes; each click is one undo step."
    } else {
        "Drag on the ground to select a rectangle; Ctrl+C copies it."
    });
    ui.horizontal(|ui| {
        match view.selection {
            Some([w, h]) => ui.label(format!("Selection: {w}×{h} quads")),
            None => ui.weak("Nothing selected"),
        };
        if ui
            .add_enabled(view.selection.is_some(), egui::Button::new("Copy"))
            .clicked()
        {
            out.push(Intent::Clipboard(ClipboardIntent::Copy));
        }
    });
    if view.selection.is_some()
        && ui
            .button("Bake shadows in the selection")
            .on_hover_text("Bake the shadow maps of the chunks it overlaps (the sun: Edit menu)")
            .clicked()
    {
        out.push(Intent::Clipboard(ClipboardIntent::BakeShadows));
    }
    match &view.held {
        Some(h) => ui.label(format!("Clipboard: {h}")),
        None => ui.weak("The clipboard is empty"),
    };
    ui.separator();
    let mut o = view.options.clone();
    ui.horizontal(|ui| {
        ui.label("Turn");
        for turns in 0..4u8 {
            ui.selectable_value(&mut o.turns, turns, format!("{}°", u32::from(turns) * 90));
        }
    });
    ui.checkbox(&mut o.mirror, "Mirror west and east");
    ui.horizontal(|ui| {
        ui.label("Heights");
        ui.selectable_value(&mut o.heights, HeightMode::Absolute, "As copied");
        ui.selectable_value(&mut o.heights, HeightMode::Relative, "On the ground here");
    });
    ui.add(Slider::new(&mut o.blend, 0.0..=100.0).text("Blend edges (yd)"));
    ui.horizontal_wrapped(|ui| {
        for layer in PasteLayer::ALL {
            let mut on = o.layers.contains(&layer);
            if ui.checkbox(&mut on, layer_name(layer)).changed() {
                if on {
                    o.layers.push(layer);
                } else {
                    o.layers.retain(|l| *l != layer);
                }
            }
        }
    });
    if o != view.options {
        out.push(Intent::Clipboard(ClipboardIntent::Options(o)));
    }
    out
}
