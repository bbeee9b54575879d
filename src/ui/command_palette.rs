//! The command palette: a box at the top of the window where typing finds any command, tool,
//! dialog, overlay, view toggle or setting (the app lists them, ranked by
//! `command::palette`), each with its key; Up and Down choose, Enter or a click runs it, Esc
//! closes.

/// The palette's accessible name (its title).
pub const PALETTE_TITLE: &str = "Command palette";
/// The accessible name of the query field.
pub const PALETTE_QUERY_LABEL: &str = "Find a command";

/// One entry as the palette shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct PaletteItem {
    /// Its name.
    pub label: String,
    /// Its key, as text, when it has one.
    pub key: Option<String>,
}

/// What the user did in the palette this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaletteOutcome {
    /// Run the entry at this place of `items`.
    Run(usize),
    /// Close without running anything.
    Close,
}

/// Shows the palette over `query` (typed) and `selected` (the highlighted place in `items`,
/// the entries the query finds, best first).
pub fn show(
    ctx: &egui::Context,
    query: &mut String,
    selected: &mut usize,
    items: &[PaletteItem],
) -> Option<PaletteOutcome> {
    let mut outcome = None;
    let (up, down, enter, escape) = ctx.input_mut(|i| {
        (
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown),
            i.consume_key(egui::Modifiers::NONE, egui::Key::Enter),
            i.consume_key(egui::Modifiers::NONE, egui::Key::Escape),
        )
    });
    if down && *selected + 1 < items.len() {
        *selected += 1;
    }
    if up {
        *selected = selected.saturating_sub(1);
    }
    *selected = (*selected).min(items.len().saturating_sub(1));
    if escape {
        return Some(PaletteOutcome::Close);
    }
    if enter && !items.is_empty() {
        return Some(PaletteOutcome::Run(*selected));
    }
    let width = 460.0;
    egui::Window::new(PALETTE_TITLE)
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .fixed_size(egui::vec2(width, 0.0))
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0))
        .show(ctx, |ui| {
            let edit = egui::TextEdit::singleline(query)
                .hint_text("Type a command, tool or setting…")
                .desired_width(width);
            let r = super::labelled(ui, PALETTE_QUERY_LABEL, edit);
            r.request_focus();
            if r.changed() {
                *selected = 0;
            }
            ui.separator();
            if items.is_empty() {
                ui.weak("Nothing is called that.");
            }
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    for (i, item) in items.iter().enumerate() {
                        ui.horizontal(|ui| {
                            let row = ui.selectable_label(i == *selected, &item.label);
                            if i == *selected {
                                row.scroll_to_me(None);
                            }
                            if let Some(k) = &item.key {
                                ui.with_layout(
                                    egui::Layout::right_to_left(egui::Align::Center),
                                    |ui| ui.weak(k),
                                );
                            }
                            if row.clicked() {
                                outcome = Some(PaletteOutcome::Run(i));
                            }
                        });
                    }
                });
        });
    outcome
}
