//! The terminal progress bar the commands that go through a map tile by tile show.
//!
//! Not for: what is counted (each command moves the bar).

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` tiles (0 until the command knows) with `label` before it: a word
/// ("writing") or `{msg}` for one the command sets.
pub fn tile_bar(label: &str, len: u64) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!("{label} [{{bar:40}}] {{pos}}/{{len}} tiles"))
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}
