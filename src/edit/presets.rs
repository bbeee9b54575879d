//! Brush presets: a tool's settings (the tool, its brush and its own values) kept under a name,
//! as painting programs keep brushes. The editor lists them in the tool panel and keeps them
//! with its settings; a preset file (`{"presets": [...]}`) moves them between machines. A few
//! ship with loam.
//!
//! Not for: where presets are kept or shown (`app::toolbox::presets`, `ui::presets_panel`).

use serde::{Deserialize, Serialize};

use crate::edit::tools::{Tool, ToolSettings};
use crate::edit::{Brush, Falloff, Shape};

/// A tool's settings under a name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BrushPreset {
    /// The name the list shows.
    pub name: String,
    /// The tool, its brush and its own values, as the tool panel sets them.
    pub settings: ToolSettings,
}

/// A preset file: what Export writes and Import reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresetFile {
    /// The presets, in the list's order.
    pub presets: Vec<BrushPreset>,
}

impl PresetFile {
    /// Reads a preset file's text; an error says what the file should look like.
    pub fn parse(text: &str) -> Result<PresetFile, String> {
        serde_json::from_str(text).map_err(|e| {
            format!(r#"not a preset file ({e}); a preset file is {{"presets": [{{"name": ..., "settings": {{...}}}}]}}"#)
        })
    }
}

/// `name`, or `name (2)`, `name (3)`… whichever no preset in `taken` has.
pub fn unique_name(name: &str, taken: &[BrushPreset]) -> String {
    let name = name.trim();
    let name = if name.is_empty() { "Preset" } else { name };
    let free = |n: &str| !taken.iter().any(|p| p.name == n);
    if free(name) {
        return name.to_string();
    }
    (2..)
        .map(|k| format!("{name} ({k})"))
        .find(|n| free(n))
        .unwrap_or_default()
}

/// The presets loam ships: the list a new user starts with.
pub fn shipped() -> Vec<BrushPreset> {
    let preset = |name: &str, tool: Tool, brush: Brush, change: fn(&mut ToolSettings)| {
        let mut settings = ToolSettings {
            brush,
            ..ToolSettings::default()
        };
        settings.choose(tool);
        change(&mut settings);
        BrushPreset {
            name: name.to_string(),
            settings,
        }
    };
    let brush = |radius: f32, inner: f32, strength: f32, falloff: Falloff| Brush {
        radius,
        inner_radius: inner,
        strength,
        falloff,
        ..ToolSettings::default().brush
    };
    vec![
        preset(
            "Soft large raise",
            Tool::Raise,
            brush(90.0, 10.0, 3.0, Falloff::Gaussian),
            |_| {},
        ),
        preset(
            "Sharp small lower",
            Tool::Lower,
            brush(8.0, 6.0, 4.0, Falloff::Linear),
            |_| {},
        ),
        preset(
            "Gentle smooth",
            Tool::Smooth,
            brush(40.0, 10.0, 0.3, Falloff::Smooth),
            |_| {},
        ),
        preset(
            "Square plateau",
            Tool::Flatten,
            Brush {
                shape: Shape::Square,
                ..brush(30.0, 24.0, 1.0, Falloff::Flat)
            },
            |_| {},
        ),
        preset(
            "Faint texture wash",
            Tool::Paint,
            brush(60.0, 5.0, 1.0, Falloff::Gaussian),
            |s| s.opacity = 0.25,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_unique_and_never_empty() {
        let taken = shipped();
        assert_eq!(unique_name("Mine", &taken), "Mine");
        assert_eq!(unique_name("Gentle smooth", &taken), "Gentle smooth (2)");
        assert_eq!(unique_name("  ", &taken), "Preset");
    }

    #[test]
    fn a_preset_file_round_trips_and_a_wrong_one_says_the_shape() {
        let file = PresetFile { presets: shipped() };
        let text = serde_json::to_string_pretty(&file).unwrap();
        assert_eq!(PresetFile::parse(&text).unwrap(), file);
        let e = PresetFile::parse(r#"[{"name": "x"}]"#).unwrap_err();
        assert!(e.contains(r#"{"presets": ["#), "{e}");
    }

    #[test]
    fn the_shipped_presets_are_distinct_tools_and_brushes() {
        let s = shipped();
        assert!(s.len() >= 4);
        assert_eq!(s[0].settings.tool, Tool::Raise);
        assert_eq!(s[1].settings.tool, Tool::Lower);
        assert!(s[0].settings.brush.radius > 4.0 * s[1].settings.brush.radius);
    }
}
