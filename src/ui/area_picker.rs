//! The Area tool's zone picker: the client's zones as a tree (each zone, then its subzones),
//! found by typing part of a name, chosen with a click. Without a client (or a table loam
//! cannot read) the tool keeps only its number field.
//!
//! Its own state (the search text, "this map only", the zones opened) lives in egui's memory
//! under the picker's id: it is what the panel shows, not part of the document.

use std::collections::BTreeSet;

use egui::{Sense, TextEdit, Vec2};
use egui_extras::{Column, TableBuilder};

use super::labelled;
use crate::assets::client::{Area, AreaNames};

/// Pixels each subzone is set in under its zone.
const INDENT: f32 = 16.0;

/// What the picker remembers between frames.
#[derive(Clone, Default)]
struct PickerState {
    query: String,
    /// Show only the open map's zones (when its Map.dbc id is known).
    all_maps: bool,
    /// Zones whose subzones are shown while there is no search.
    open: BTreeSet<u32>,
}

/// One line of the tree.
enum Line<'a> {
    Zone {
        area: &'a Area,
        subzones: usize,
        open: bool,
    },
    Subzone(&'a Area),
}

/// Shows the picker for `names` (the open map's zones first: `map` is its Map.dbc id, when
/// known); a click on a zone or subzone sets `chosen` to its id.
pub fn show(ui: &mut egui::Ui, names: &AreaNames, map: Option<u32>, chosen: &mut u32) {
    let id = egui::Id::unique("loam-area-picker");
    let mut state: PickerState = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    ui.horizontal(|ui| {
        labelled(
            ui,
            "Find zone",
            TextEdit::singleline(&mut state.query).hint_text("part of a name"),
        );
    });
    if map.is_some() {
        ui.checkbox(&mut state.all_maps, "Zones of every map");
    }
    let zones = names.zones(if state.all_maps { None } else { map });
    let query = state.query.trim().to_lowercase();
    let hit = |a: &Area| query.is_empty() || a.name.to_lowercase().contains(&query);
    let mut lines = Vec::new();
    for z in &zones {
        let zone_hit = hit(z.area);
        let subzones: Vec<&Area> = z
            .subzones
            .iter()
            .copied()
            .filter(|a| zone_hit || hit(a))
            .collect();
        if !zone_hit && subzones.is_empty() {
            continue;
        }
        // A search opens every zone it finds something in.
        let open = !query.is_empty() || state.open.contains(&z.area.key);
        lines.push(Line::Zone {
            area: z.area,
            subzones: z.subzones.len(),
            open,
        });
        if open {
            lines.extend(subzones.into_iter().map(Line::Subzone));
        }
    }
    if lines.is_empty() {
        ui.label("No zone or subzone has that in its name.");
    }
    let mut toggled = None;
    TableBuilder::new(ui)
        .id_salt("loam-area-picker-table")
        .striped(true)
        .column(Column::remainder())
        .column(Column::auto())
        .max_scroll_height(240.0)
        .auto_shrink([false, true])
        .body(|body| {
            body.rows(18.0, lines.len(), |mut row| {
                let line = &lines[row.index()];
                let area = match line {
                    Line::Zone { area, .. } | Line::Subzone(area) => *area,
                };
                row.col(|ui| {
                    ui.horizontal(|ui| {
                        match line {
                            Line::Zone { subzones, open, .. } if *subzones > 0 => {
                                let (rect, r) =
                                    ui.allocate_exact_size(Vec2::splat(12.0), Sense::click());
                                let r = r.with_new_rect(rect);
                                egui::collapsing_header::paint_default_icon(
                                    ui,
                                    if *open { 1.0 } else { 0.0 },
                                    &r,
                                );
                                if r.clicked() {
                                    toggled = Some(area.key);
                                }
                            }
                            Line::Zone { .. } => ui.add_space(12.0 + ui.spacing().item_spacing.x),
                            Line::Subzone(_) => ui.add_space(INDENT + 12.0),
                        }
                        let text = match line {
                            Line::Zone { .. } => egui::RichText::new(&area.name).strong(),
                            Line::Subzone(_) => egui::RichText::new(&area.name),
                        };
                        if ui
                            .add(egui::Button::selectable(*chosen == area.key, text).frame(false))
                            .clicked()
                        {
                            *chosen = area.key;
                        }
                    });
                });
                row.col(|ui| {
                    ui.weak(area.key.to_string());
                });
            });
        });
    if let Some(key) = toggled
        && !state.open.remove(&key)
    {
        state.open.insert(key);
    }
    ui.data_mut(|d| d.insert_temp(id, state));
}
