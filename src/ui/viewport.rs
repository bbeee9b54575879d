//! The 3D view's frame: takes the space left by the panels, places the renderer's paint
//! callback (or a placeholder without GL) and gathers the input the app turns into camera
//! moves and picking.

use egui::{Key, PointerButton, Rect, Sense, Vec2};

/// The accessible name of the 3D view.
pub const VIEWPORT_LABEL: &str = "3D view";

/// This frame's input over the 3D view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewportInput {
    /// The view's rectangle in points.
    pub rect: Rect,
    /// The mouse position in normalised device coordinates (-1..1, y up), when over the view.
    pub hover_ndc: Option<[f32; 2]>,
    /// Right-button drag this frame, in points: look around.
    pub look: Vec2,
    /// Middle-button (or Alt + left) drag this frame, in points: orbit.
    pub orbit: Vec2,
    /// Mouse wheel, in points: zoom.
    pub scroll: f32,
    /// Movement keys: forward (W/S), right (D/A), up (E/Q), each -1..1.
    pub fly: [f32; 3],
    /// Shift held: move faster.
    pub fast: bool,
    /// Ctrl held: move slower.
    pub slow: bool,
    /// A double click, in normalised device coordinates: frame that point.
    pub double_click_ndc: Option<[f32; 2]>,
    /// Seconds since the last frame.
    pub dt: f32,
    /// The brush (left button, without Alt) went down over the view this frame.
    pub brush_pressed: bool,
    /// The brush button is held.
    pub brush_held: bool,
    /// The mouse wheel turned with a modifier over the view, in notches (up positive): Alt
    /// steps the brush radius, Shift its strength, Ctrl its inner radius; the view does not
    /// zoom then.
    pub brush_wheel: Option<(WheelTarget, f32)>,
    /// A pen's pressure this frame, 0..1, where the platform reports it (egui's touch force).
    pub pressure: Option<f32>,
}

/// What the wheel with a modifier steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WheelTarget {
    /// The outer radius (Alt).
    Radius,
    /// The strength (Shift).
    Strength,
    /// The inner radius (Ctrl).
    Inner,
}

impl Default for ViewportInput {
    fn default() -> Self {
        ViewportInput {
            rect: Rect::NOTHING,
            hover_ndc: None,
            look: Vec2::ZERO,
            orbit: Vec2::ZERO,
            scroll: 0.0,
            fly: [0.0; 3],
            fast: false,
            slow: false,
            double_click_ndc: None,
            dt: 0.0,
            brush_pressed: false,
            brush_held: false,
            brush_wheel: None,
            pressure: None,
        }
    }
}

impl ViewportInput {
    /// Width over height of the view.
    pub fn aspect(&self) -> f32 {
        (self.rect.width() / self.rect.height().max(1.0)).max(0.01)
    }

    /// True when something in it moves the camera, so the app keeps repainting.
    pub fn is_active(&self) -> bool {
        self.look != Vec2::ZERO
            || self.orbit != Vec2::ZERO
            || self.scroll != 0.0
            || self.fly != [0.0; 3]
    }
}

fn to_ndc(rect: Rect, p: egui::Pos2) -> [f32; 2] {
    [
        (p.x - rect.left()) / rect.width() * 2.0 - 1.0,
        1.0 - (p.y - rect.top()) / rect.height() * 2.0,
    ]
}

/// Shows the view. `callback` draws the terrain; `placeholder` is shown instead when there is
/// none (no GL context, as in tests) or on top when there is something to say. `fly_keys` are
/// the keys held to fly forward, back, left, right, up and down (the user's keymap's).
pub fn show(
    ui: &mut egui::Ui,
    callback: impl FnOnce(Rect) -> Option<egui::PaintCallback>,
    placeholder: Option<&str>,
    tooltip: Option<&str>,
    marks: &ViewMarks,
    fly_keys: &[Option<Key>; 6],
) -> ViewportInput {
    let rect = ui.available_rect_before_wrap();
    let response = ui.allocate_rect(rect, Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, VIEWPORT_LABEL));
    match callback(rect) {
        Some(cb) => {
            ui.painter().add(cb);
        }
        None => {
            ui.painter()
                .rect_filled(rect, 0.0, egui::Color32::from_rgb(40, 48, 56));
        }
    }
    if let Some(g) = &marks.gizmo {
        paint_gizmo(ui.painter(), rect, g);
    }
    if let Some((a, b)) = marks.band {
        let band = Rect::from_two_pos(to_px(rect, a), to_px(rect, b));
        ui.painter().rect_filled(
            band,
            0.0,
            egui::Color32::from_rgba_unmultiplied(255, 255, 255, 24),
        );
        ui.painter().rect_stroke(
            band,
            0.0,
            egui::Stroke::new(1.0, egui::Color32::WHITE),
            egui::StrokeKind::Inside,
        );
    }
    if let Some(text) = placeholder {
        // A label (not painted text) so that screen readers and tests can find it.
        let area = Rect::from_center_size(rect.center(), egui::vec2(rect.width() * 0.8, 40.0));
        ui.put(
            area,
            egui::Label::new(
                egui::RichText::new(text)
                    .size(16.0)
                    .color(egui::Color32::LIGHT_GRAY),
            ),
        );
    }
    if let Some(text) = tooltip
        && response.hovered()
    {
        response.show_tooltip_text(text);
    }
    let mut input = ViewportInput {
        rect,
        dt: ui.input(|i| i.stable_dt).min(0.1),
        ..ViewportInput::default()
    };
    input.hover_ndc = response.hover_pos().map(|p| to_ndc(rect, p));
    let alt = ui.input(|i| i.modifiers.alt);
    // The left button without Alt is the brush; with Alt it orbits (below).
    let (pressed, down) = ui.input(|i| (i.pointer.primary_pressed(), i.pointer.primary_down()));
    input.brush_pressed = pressed && !alt && response.hovered();
    input.brush_held = down && !alt;
    if response.dragged_by(PointerButton::Secondary) {
        input.look = response.drag_delta();
    }
    if response.dragged_by(PointerButton::Middle)
        || (alt && response.dragged_by(PointerButton::Primary))
    {
        input.orbit = response.drag_delta();
    }
    if response.hovered() {
        input.brush_wheel = ui.input(|i| brush_wheel(&i.events));
        // egui spreads a wheel turn over the next frames: the rest of a turn that stepped the
        // brush must not zoom either, so zooming waits until that smoothed turn has run out.
        let smoothed = ui.input(|i| i.smooth_scroll_delta.y);
        let id = egui::Id::unique("loam-brush-wheel");
        let stepping = input.brush_wheel.is_some()
            || (smoothed != 0.0 && ui.data(|d| d.get_temp::<bool>(id)).unwrap_or(false));
        ui.data_mut(|d| d.insert_temp(id, stepping));
        if !stepping {
            input.scroll = smoothed;
        }
        input.pressure = ui.input(|i| {
            i.events.iter().rev().find_map(|e| match e {
                egui::Event::Touch { force: Some(f), .. } => Some(f.clamp(0.0, 1.0)),
                _ => None,
            })
        });
    }
    if response.double_clicked()
        && let Some(p) = response.interact_pointer_pos()
    {
        input.double_click_ndc = Some(to_ndc(rect, p));
    }
    // Keys fly the camera unless a text field has the keyboard.
    if !ui.ctx().egui_wants_keyboard_input() {
        ui.input(|i| {
            let down = |k: Option<Key>| k.is_some_and(|k| i.key_down(k)) as i32 as f32;
            let axis = |pos: usize, neg: usize| down(fly_keys[pos]) - down(fly_keys[neg]);
            // In `CameraMove::ALL`'s order: forward, back, left, right, up, down.
            input.fly = [axis(0, 1), axis(3, 2), axis(4, 5)];
            input.fast = i.modifiers.shift;
            input.slow = i.modifiers.ctrl;
        });
    }
    input
}

/// The wheel's turn this frame with a modifier held, in notches, and what it steps.
fn brush_wheel(events: &[egui::Event]) -> Option<(WheelTarget, f32)> {
    let mut out = None;
    for e in events {
        if let egui::Event::MouseWheel {
            unit,
            delta,
            modifiers,
            ..
        } = e
        {
            let target = if modifiers.alt {
                WheelTarget::Radius
            } else if modifiers.shift {
                WheelTarget::Strength
            } else if modifiers.command || modifiers.ctrl {
                WheelTarget::Inner
            } else {
                continue;
            };
            // Shift turns a wheel sideways on some platforms: either axis counts.
            let d = if delta.y != 0.0 { delta.y } else { delta.x };
            let notches = match unit {
                egui::MouseWheelUnit::Point => d / 50.0,
                egui::MouseWheelUnit::Line => d,
                egui::MouseWheelUnit::Page => d * 3.0,
            };
            let sum = out.map_or(0.0, |(_, n)| n) + notches;
            out = Some((target, sum));
        }
    }
    out
}

/// What the object tool marks on top of the view.
#[derive(Debug, Clone, Default)]
pub struct ViewMarks {
    /// The gizmo around the selection.
    pub gizmo: Option<crate::render::gizmo::Gizmo>,
    /// A rubber-band rectangle being dragged (two corners, normalised device coordinates).
    pub band: Option<([f32; 2], [f32; 2])>,
}

/// A point in normalised device coordinates (-1..1, y up) in the view's screen points.
fn to_px(rect: Rect, p: [f32; 2]) -> egui::Pos2 {
    egui::pos2(
        rect.center().x + p[0] * rect.width() / 2.0,
        rect.center().y - p[1] * rect.height() / 2.0,
    )
}

/// Paints the object tool's gizmo: the ring (yellow) under the arrows (x red, y green, z blue).
pub fn paint_gizmo(painter: &egui::Painter, rect: Rect, g: &crate::render::gizmo::Gizmo) {
    let px = |p: [f32; 2]| to_px(rect, p);
    let ring: Vec<egui::Pos2> = g.ring.iter().map(|&p| px(p)).collect();
    painter.add(egui::Shape::line(
        ring,
        egui::Stroke::new(2.5, egui::Color32::from_rgb(240, 200, 60)),
    ));
    let colours = [
        egui::Color32::from_rgb(230, 60, 60),
        egui::Color32::from_rgb(70, 200, 70),
        egui::Color32::from_rgb(70, 120, 240),
    ];
    let centre = px(g.centre);
    for ((tip, _), colour) in g.axes.iter().zip(colours) {
        let tip = px(*tip);
        painter.line_segment([centre, tip], egui::Stroke::new(3.0, colour));
        painter.circle_filled(tip, 5.0, colour);
    }
    // The scale handle: a white square at the centre.
    painter.rect_filled(
        Rect::from_center_size(centre, egui::vec2(9.0, 9.0)),
        1.0,
        egui::Color32::WHITE,
    );
}

/// A line over the top of the view that the user should read: what is wrong and the one
/// thing that fixes it (a link), with a button to hide it.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// What is wrong ("468 models not found: no game client folder is chosen.").
    pub text: String,
    /// The link's words ("Choose the client folder…").
    pub action_label: String,
    /// What the link does.
    pub action: crate::command::Intent,
}

/// The accessible name of the notice's hide button.
pub const NOTICE_HIDE_LABEL: &str = "Hide this notice";

/// Shows `notice` over the top of the view `rect`.
pub fn notice(ui: &egui::Ui, rect: Rect, notice: &Notice) -> Vec<crate::command::Intent> {
    let mut out = Vec::new();
    // At the foot of the view: dialogs open at the top left, and must not be covered.
    egui::Area::new(egui::Id::unique("loam-view-notice"))
        .pivot(egui::Align2::LEFT_BOTTOM)
        .fixed_pos(rect.left_bottom() + egui::vec2(8.0, -8.0))
        .order(egui::Order::Middle)
        .show(ui.ctx(), |ui| {
            ui.set_max_width(rect.width() - 16.0);
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    ui.label(&notice.text);
                    if ui.link(&notice.action_label).clicked() {
                        out.push(notice.action.clone());
                    }
                    if ui
                        .small_button("×")
                        .on_hover_text(NOTICE_HIDE_LABEL)
                        .clicked()
                    {
                        out.push(crate::command::Intent::Command(
                            crate::command::Command::DismissModelNotice,
                        ));
                    }
                });
            });
        });
    out
}
