//! What a conversion dropped or changed, counted, for the user to read before trusting a file.

use std::collections::BTreeMap;
use std::fmt;

use crate::format::Generation;

/// Counts of everything a conversion dropped or changed, by description.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Report {
    /// The generation converted from.
    pub from: Option<String>,
    /// The generation converted to.
    pub to: Option<String>,
    /// "what happened" → how many times.
    pub changes: BTreeMap<String, u64>,
}

impl Report {
    /// An empty report for a conversion between two generations.
    pub fn new(from: Generation, to: Generation) -> Report {
        Report {
            from: Some(from.to_string()),
            to: Some(to.to_string()),
            changes: BTreeMap::new(),
        }
    }

    /// Counts `n` occurrences of `what` (nothing is recorded for 0).
    pub fn note(&mut self, what: impl Into<String>, n: u64) {
        if n > 0 {
            *self.changes.entry(what.into()).or_default() += n;
        }
    }

    /// Adds another report's counts (per-tile reports into a map's).
    pub fn merge(&mut self, other: Report) {
        for (k, v) in other.changes {
            self.note(k, v);
        }
    }

    /// True when nothing was dropped or changed.
    pub fn is_lossless(&self) -> bool {
        self.changes.is_empty()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to) = (
            self.from.as_deref().unwrap_or("?"),
            self.to.as_deref().unwrap_or("?"),
        );
        if self.changes.is_empty() {
            return writeln!(f, "{from} → {to}: nothing dropped or changed");
        }
        writeln!(f, "{from} → {to}: dropped or changed")?;
        for (what, n) in &self.changes {
            writeln!(f, "  {n:>8}  {what}")?;
        }
        Ok(())
    }
}
