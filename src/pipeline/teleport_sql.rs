//! The servers' side of a teleport trigger: `areatrigger_teleport` rows as SQL that the
//! cores' world databases take as they are.
//!
//! Only the columns every core shares are named: `id`, `name`, `target_map`,
//! `target_position_x`, `target_position_y`, `target_position_z`, `target_orientation`.
//! TrinityCore 3.3.5 and AzerothCore (`data/sql/base/db_world/areatrigger_teleport.sql`) hold
//! exactly these; cMaNGOS classic and WotLK (`sql/base/mangos.sql`) hold more (required
//! level, items, quests, heroic keys), each `NOT NULL DEFAULT '0'` or a nullable text, so an
//! insert without them takes the defaults. Column names are case-blind in MySQL (TrinityCore
//! and AzerothCore spell them `ID` and `Name`). Each trigger's row is deleted before it is
//! inserted, so running the file again, or after an edit, leaves one row.
//!
//! Strings are quoted the SQL standard's way (`''` for a quote), which MySQL and SQLite both
//! read; a name with a backslash or a control character is refused rather than escaped,
//! because MySQL and the standard read a backslash differently.
//!
//! Not for: the client's rows (`assets::client::area_triggers`).

use std::path::Path;

use crate::disk::{LoamError, Result, io_err, write_atomic};

/// Where a teleport trigger sends the player.
#[derive(Debug, Clone, PartialEq)]
pub struct Teleport {
    /// The trigger's AreaTrigger.dbc id.
    pub trigger: u32,
    /// A name for the row (the cores show it in logs and tools).
    pub name: String,
    /// The target map's Map.dbc id.
    pub map: u32,
    /// The target position in game coordinates.
    pub at: [f32; 3],
    /// The direction the player faces on arrival, radians.
    pub orientation: f32,
}

/// The statements that make `t` the one `areatrigger_teleport` row of its trigger.
pub fn teleport_sql(t: &Teleport) -> Result<String> {
    if t.name.chars().any(|c| c == '\\' || c.is_control()) {
        return Err(LoamError::Usage(format!(
            "the teleport's name {:?} holds a backslash or a control character, which the \
             cores' databases read differently; choose another",
            t.name
        )));
    }
    let finite = t.at.iter().chain([&t.orientation]).all(|v| v.is_finite());
    if !finite {
        return Err(LoamError::Usage(
            "the teleport's target is not a finite position".into(),
        ));
    }
    let name = t.name.replace('\'', "''");
    let [x, y, z] = t.at;
    Ok(format!(
        "-- loam: area trigger {id} teleports to map {map}\n\
         DELETE FROM areatrigger_teleport WHERE id = {id};\n\
         INSERT INTO areatrigger_teleport (id, name, target_map, target_position_x, \
         target_position_y, target_position_z, target_orientation) VALUES ({id}, '{name}', \
         {map}, {x}, {y}, {z}, {o});\n",
        id = t.trigger,
        map = t.map,
        o = t.orientation
    ))
}

/// Adds `t`'s statements to the end of the SQL file at `path` (made when missing), the whole
/// file written at a temporary name and renamed over it.
pub fn append_teleport(path: &Path, t: &Teleport) -> Result<()> {
    let mut text = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io_err(path)(e)),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&teleport_sql(t)?);
    write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_doubled_and_backslashes_refused() {
        let t = Teleport {
            trigger: 9001,
            name: "Ony's Lair".into(),
            map: 249,
            at: [29.25, -71.5, -8.0],
            orientation: 4.5,
        };
        let sql = teleport_sql(&t).unwrap();
        assert!(
            sql.contains("VALUES (9001, 'Ony''s Lair', 249, 29.25, -71.5, -8, 4.5);"),
            "{sql}"
        );
        assert!(sql.contains("DELETE FROM areatrigger_teleport WHERE id = 9001;"));
        let bad = Teleport {
            name: "a\\b".into(),
            ..t
        };
        assert!(teleport_sql(&bad).is_err());
    }
}
