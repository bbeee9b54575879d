//! The sandbox every user script runs in, the one place its rules live: a Lua 5.4 state with
//! only the table, string, math, utf8 and coroutine libraries; no `os`, `io`, `package`,
//! `debug`, no `require`, `load`, `loadfile`, `dofile`, `collectgarbage` or `string.dump` (each
//! name answers with an error saying what was refused); source text only, never bytecode; a
//! memory limit; and a deadline checked every few thousand instructions.
//!
//! Not for: the `loam` table the scripts edit the map through (`api`, `dab`).

use std::cell::Cell;
use std::path::Path;
use std::rc::Rc;
use std::time::{Duration, Instant};

use mlua::chunk::ChunkMode;
use mlua::{HookTriggers, Lua, LuaOptions, StdLib, Value, VmState};

use super::ScriptError;

/// The limits one script runs under.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Longest a stroke (or loading the file) may run.
    pub time: Duration,
    /// Most memory the script's Lua state may hold, bytes.
    pub memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: Duration::from_secs(10),
            memory: 256 << 20,
        }
    }
}

/// What a refused name says.
const REFUSED: &str = "is not allowed: scripts may only edit the map";

/// Libraries replaced by a table whose every field is refused by name (`os.execute`).
const REFUSED_LIBRARIES: [&str; 4] = ["os", "io", "package", "debug"];

/// Functions replaced by one that refuses by name.
const REFUSED_FUNCTIONS: [&str; 6] = [
    "require",
    "load",
    "loadfile",
    "dofile",
    "loadstring",
    "collectgarbage",
];

/// The deadline the hook checks; shared between the state and its runner.
#[derive(Debug, Clone, Default)]
pub struct Deadline(Rc<Cell<Option<(Instant, Duration)>>>);

impl Deadline {
    /// Starts the clock: from now, `limit`.
    pub fn start(&self, limit: Duration) {
        self.0.set(Some((Instant::now() + limit, limit)));
    }

    /// Stops the clock.
    pub fn stop(&self) {
        self.0.set(None);
    }
}

/// A fresh sandboxed state under `limits`, with the deadline its hook checks.
pub fn new_state(limits: &Limits) -> Result<(Lua, Deadline), ScriptError> {
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::default()).map_err(ScriptError::from_lua)?;
    let setup = || -> mlua::Result<()> {
        let g = lua.globals();
        for name in REFUSED_FUNCTIONS {
            let f = lua.create_function(move |_, _: mlua::MultiValue| -> mlua::Result<()> {
                Err(mlua::Error::runtime(format!("`{name}` {REFUSED}")))
            })?;
            g.raw_set(name, f)?;
        }
        for lib in REFUSED_LIBRARIES {
            let table = lua.create_table()?;
            let meta = lua.create_table()?;
            let refuse =
                lua.create_function(move |_, (_, key): (Value, Value)| -> mlua::Result<()> {
                    let key = match key {
                        Value::String(s) => s.to_string_lossy(),
                        other => format!("{other:?}"),
                    };
                    Err(mlua::Error::runtime(format!("`{lib}.{key}` {REFUSED}")))
                })?;
            meta.raw_set("__index", refuse.clone())?;
            meta.raw_set("__newindex", refuse)?;
            meta.raw_set(
                "__call",
                lua.create_function(move |_, _: mlua::MultiValue| -> mlua::Result<()> {
                    Err(mlua::Error::runtime(format!("`{lib}` {REFUSED}")))
                })?,
            )?;
            meta.raw_set("__metatable", false)?;
            table.set_metatable(Some(meta))?;
            g.raw_set(lib, table)?;
        }
        // string.dump makes bytecode, which nothing here can load; take it away all the same.
        let string: mlua::Table = g.get("string")?;
        string.raw_set(
            "dump",
            lua.create_function(|_, _: mlua::MultiValue| -> mlua::Result<()> {
                Err(mlua::Error::runtime(format!("`string.dump` {REFUSED}")))
            })?,
        )?;
        Ok(())
    };
    setup().map_err(ScriptError::from_lua)?;
    lua.set_memory_limit(limits.memory)
        .map_err(ScriptError::from_lua)?;
    let deadline = Deadline::default();
    let clock = deadline.0.clone();
    // Every 10,000 instructions: a few microseconds apart, cheap against the work between.
    let triggers = HookTriggers::new().every_nth_instruction(10_000);
    lua.set_global_hook(triggers, move |_, debug| match clock.get() {
        Some((at, limit)) if Instant::now() >= at => {
            let source = debug.source();
            let file = source.short_src.as_deref().unwrap_or("?").to_string();
            let line = debug.current_line().unwrap_or(0);
            Err(mlua::Error::runtime(format!(
                "{file}:{line}: the script ran past its time limit of {} s (--time-limit)",
                limit.as_secs_f64()
            )))
        }
        _ => Ok(VmState::Continue),
    })
    .map_err(ScriptError::from_lua)?;
    Ok((lua, deadline))
}

/// Runs the text of `path` in `lua` as source (bytecode refused), named by its path so that
/// errors give the file and line, under `limits.time`.
pub fn run_file(
    lua: &Lua,
    deadline: &Deadline,
    path: &Path,
    text: &str,
    limits: &Limits,
) -> Result<(), ScriptError> {
    deadline.start(limits.time);
    let result = lua
        .load(text)
        .set_name(format!("@{}", path.display()))
        .set_mode(ChunkMode::Text)
        .exec();
    deadline.stop();
    result.map_err(ScriptError::from_lua)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(code: &str) -> Result<(), ScriptError> {
        let limits = Limits {
            time: Duration::from_millis(500),
            memory: 16 << 20,
        };
        let (lua, deadline) = new_state(&limits)?;
        run_file(&lua, &deadline, Path::new("t.lua"), code, &limits)
    }

    #[test]
    fn what_could_reach_outside_the_map_is_refused_by_name() {
        for (code, says) in [
            ("os.execute('true')", "`os.execute` is not allowed"),
            ("io.open('/etc/passwd')", "`io.open` is not allowed"),
            ("require('x')", "`require` is not allowed"),
            ("load('return 1')()", "`load` is not allowed"),
            ("dofile('x.lua')", "`dofile` is not allowed"),
            ("debug.getinfo(1)", "`debug.getinfo` is not allowed"),
            (
                "package.loadlib('x', 'y')",
                "`package.loadlib` is not allowed",
            ),
            ("string.dump(print)", "`string.dump` is not allowed"),
            ("setmetatable(os, nil)", "protected metatable"),
        ] {
            let e = run(code).unwrap_err().to_string();
            assert!(e.contains(says), "{code}: {e}");
        }
        run("local t = {} table.insert(t, math.floor(2.5)) assert(#t == 1)").unwrap();
    }

    #[test]
    fn a_runaway_loop_stops_at_the_deadline_and_memory_is_limited() {
        let start = Instant::now();
        let e = run("while true do end").unwrap_err().to_string();
        assert!(e.contains("time limit"), "{e}");
        // A coroutine's loop too: a new thread takes its parent's hook.
        let e = run("coroutine.wrap(function() while true do end end)()")
            .unwrap_err()
            .to_string();
        assert!(e.contains("time limit"), "{e}");
        assert!(start.elapsed() < Duration::from_secs(5));
        let e = run("local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1000) .. i end")
            .unwrap_err()
            .to_string();
        assert!(e.contains("memory"), "{e}");
    }

    #[test]
    fn bytecode_is_refused() {
        let limits = Limits::default();
        let (lua, deadline) = new_state(&limits).unwrap();
        let e = run_file(&lua, &deadline, Path::new("b.lua"), "\x1bLua", &limits)
            .unwrap_err()
            .to_string();
        assert!(e.contains("binary") || e.contains("mode"), "{e}");
    }
}
