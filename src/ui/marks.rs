//! Paints the tools' marks (`render::marks`: dots and lines already projected) over the 3D
//! view, clipped to it.
//!
//! Not for: where the marks are (the tools in `app`, projected by `render::marks`).

use egui::{Color32, Painter, Pos2, Rect, Stroke};

use crate::render::marks::{Marks, Rgba};

/// A point in normalised device coordinates (-1..1, y up) in the view's screen points.
fn to_px(rect: Rect, p: [f32; 2]) -> Pos2 {
    egui::pos2(
        rect.center().x + p[0] * rect.width() / 2.0,
        rect.center().y - p[1] * rect.height() / 2.0,
    )
}

fn colour([r, g, b, a]: Rgba) -> Color32 {
    Color32::from_rgba_unmultiplied(r, g, b, a)
}

/// Paints `marks` over the view `rect` with `painter`: lines first, dots and labels on top.
pub fn paint(painter: &Painter, rect: Rect, marks: &Marks) {
    let painter = painter.with_clip_rect(rect);
    for (points, width, rgba) in &marks.lines {
        let points: Vec<Pos2> = points.iter().map(|&p| to_px(rect, p)).collect();
        painter.add(egui::Shape::line(
            points,
            Stroke::new(*width, colour(*rgba)),
        ));
    }
    for (p, radius, rgba) in &marks.dots {
        let at = to_px(rect, *p);
        if rect.expand(*radius).contains(at) {
            painter.circle_filled(at, *radius, colour(*rgba));
        }
    }
    for (p, text, rgba) in &marks.labels {
        let at = to_px(rect, *p);
        if rect.contains(at) {
            painter.text(
                at,
                egui::Align2::LEFT_BOTTOM,
                text,
                egui::FontId::proportional(13.0),
                colour(*rgba),
            );
        }
    }
}
