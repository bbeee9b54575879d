//! User brushes in Lua (docs/scripting.md, "Lua brushes"): a script declares brushes with
//! `loam.brush(name, params)` and gives each a `dab(dab, params)` function; a stroke of one runs
//! that function once per dab, through the same lattice, paint, shade and object edits as the
//! built-in tools, as one undo step in the document's history, or not at all when it fails.
//!
//! The room: [`sandbox`] (the Lua state and every rule of what a script may not do),
//! [`decl`] (brush declarations and their parameters), [`dab`] (what a script sees of one dab
//! and writes back), [`api`] (the `loam` table), [`host`] (a loaded script and its strokes)
//! and [`folder`] (the scripts of a folder, for the tool bar).
//!
//! Not for: drawing the tool bar or the settings panel (`app`, `ui`), or saving (the callers).

pub mod api;
pub mod dab;
pub mod decl;
pub mod folder;
pub mod host;
pub mod sandbox;

use std::path::{Path, PathBuf};

pub use decl::{BrushDecl, ParamDecl, ParamKind, ParamValue};
pub use folder::{ScriptEntry, list_scripts, script_files, user_folder};
pub use host::{Script, StrokeOutcome, StrokeRequest};
pub use sandbox::Limits;

/// What went wrong in a script: the file, the line when Lua knows it, and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// The script file.
    pub file: PathBuf,
    /// The line the error was raised at, when known.
    pub line: Option<u32>,
    /// What happened.
    pub message: String,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

impl std::error::Error for ScriptError {}

impl ScriptError {
    /// An error of `file` with no line.
    pub fn new(file: &Path, message: impl Into<String>) -> ScriptError {
        ScriptError {
            file: file.to_path_buf(),
            line: None,
            message: message.into(),
        }
    }

    /// An error from Lua, with no file yet (the host names it: [`ScriptError::in_file`]).
    pub(crate) fn from_lua(e: mlua::Error) -> ScriptError {
        let (message, traceback) = describe(&e);
        let mut out = ScriptError {
            file: PathBuf::new(),
            line: None,
            message,
        };
        // "name:LINE: what" from Lua itself, else the first Lua frame of the traceback.
        if let Some((line, rest)) = split_location(&out.message) {
            out.line = Some(line);
            out.message = rest;
        } else if let Some(line) = traceback.lines().find_map(|l| {
            let l = l.trim();
            (!l.starts_with("[C]"))
                .then(|| split_location(l))
                .flatten()
                .map(|(n, _)| n)
        }) {
            out.line = Some(line);
        }
        out
    }

    /// The same error, naming `file`.
    pub(crate) fn in_file(mut self, file: &Path) -> ScriptError {
        self.file = file.to_path_buf();
        self
    }
}

/// The message of a Lua error without its traceback, and the traceback of the innermost
/// Rust callback that failed (empty when none).
fn describe(e: &mlua::Error) -> (String, String) {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            let (message, inner) = describe(cause);
            (
                message,
                if inner.is_empty() {
                    traceback.clone()
                } else {
                    inner
                },
            )
        }
        mlua::Error::SyntaxError { message, .. } => (message.clone(), String::new()),
        mlua::Error::RuntimeError(m) => (
            m.split("\nstack traceback:")
                .next()
                .unwrap_or(m)
                .to_string(),
            m.split_once("\nstack traceback:")
                .map(|(_, t)| t.to_string())
                .unwrap_or_default(),
        ),
        mlua::Error::MemoryError(_) => (
            "the script used more memory than its limit allows".to_string(),
            String::new(),
        ),
        mlua::Error::WithContext { context, cause } => {
            let (message, traceback) = describe(cause);
            (format!("{context}: {message}"), traceback)
        }
        other => (other.to_string(), String::new()),
    }
}

/// Splits "name:LINE: rest" into the line and the rest.
fn split_location(text: &str) -> Option<(u32, String)> {
    let mut parts = text.splitn(3, ':');
    let _name = parts.next()?;
    let line = parts.next()?.trim().parse().ok()?;
    let rest = parts.next()?.trim_start().to_string();
    Some((line, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_comes_from_the_message_or_the_traceback() {
        assert_eq!(
            split_location("terrace.lua:12: attempt to index a nil value"),
            Some((12, "attempt to index a nil value".to_string()))
        );
        let e = ScriptError::from_lua(mlua::Error::CallbackError {
            traceback: "stack traceback:\n\t[C]: in ?\n\tt.lua:7: in function 'f'".into(),
            cause: mlua::Error::runtime("`os.execute` is not allowed").into(),
        })
        .in_file(Path::new("t.lua"));
        assert_eq!(e.to_string(), "t.lua:7: `os.execute` is not allowed");
    }
}
