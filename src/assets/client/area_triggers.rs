//! The client's area triggers (`DBFilesClient\AreaTrigger.dbc`): the spheres and boxes where a
//! server teleports, rests or scripts a player, read and edited row by row (`model::table_rows`).
//!
//! Layouts, from WoWDBDefs (`definitions/AreaTrigger.dbd`), every field four bytes:
//! - `BUILD 0.5.3.3368-0.9.1.3810`: ID, ContinentID, Pos[3], Radius: 6 fields (spheres only);
//! - `BUILD 0.10.0.3892-0.12.0.3988`, `1.0.0.3980-1.12.3.6141`, `2.0.0.5610-2.4.3.8606`,
//!   `3.0.1.8303-3.3.5.12340`: the same with Box_length, Box_width, Box_height, Box_yaw:
//!   10 fields.
//!
//! Pos is in game coordinates (x north, y west, z up, as `.go xyz`): the servers compare it
//! with the player's position unchanged (TrinityCore's `Player::IsInAreaTriggerRadius`,
//! cMaNGOS's `IsPointInAreaTriggerZone`). A row with a radius above 0 is a sphere; otherwise a
//! box centred on Pos, `length` along the yaw's direction, `width` across it, `height` up,
//! the yaw in radians.
//!
//! Not for: where the rows are written (`pipeline::table_archive`), the servers' teleport rows
//! (`pipeline::teleport_sql`).

use super::ClientGeneration;
use crate::model::table_rows::DbcRows;

/// Where the client keeps its area triggers.
pub const AREA_TRIGGER_DBC: &str = "DBFilesClient\\AreaTrigger.dbc";

/// A trigger's shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TriggerShape {
    /// A sphere of this radius (yards).
    Sphere {
        /// Its radius.
        radius: f32,
    },
    /// A box (yards; yaw in radians).
    Box {
        /// Along the yaw.
        length: f32,
        /// Across the yaw.
        width: f32,
        /// Up.
        height: f32,
        /// Its turn about the up axis, radians.
        yaw: f32,
    },
}

/// One row of AreaTrigger.dbc.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AreaTrigger {
    /// The row id (the servers' `areatrigger_teleport.id`).
    pub id: u32,
    /// The Map.dbc id of its map.
    pub map: u32,
    /// Its centre in game coordinates.
    pub at: [f32; 3],
    /// Its shape.
    pub shape: TriggerShape,
}

/// AreaTrigger.dbc, to read and edit.
#[derive(Debug, Clone, PartialEq)]
pub struct TriggerRows {
    rows: DbcRows,
}

impl TriggerRows {
    /// The table in `bytes` with `generation`'s layout (the 10-field one, then the 6-field
    /// one, when the generation is unknown); `None` when it fits neither.
    pub fn read(bytes: &[u8], generation: &ClientGeneration) -> Option<TriggerRows> {
        let rows = match generation {
            ClientGeneration::Alpha | ClientGeneration::V060 => DbcRows::read(bytes, 6),
            ClientGeneration::V112 | ClientGeneration::V243 | ClientGeneration::V335 => {
                DbcRows::read(bytes, 10)
            }
            ClientGeneration::Unknown(_) => {
                DbcRows::read(bytes, 10).or_else(|| DbcRows::read(bytes, 6))
            }
        }?;
        Some(TriggerRows { rows })
    }

    /// The table as `rows` holds it (the map's copy, `Map::client_tables`).
    pub fn from_rows(rows: DbcRows) -> TriggerRows {
        TriggerRows { rows }
    }

    /// The table's rows, to hold in the map or compare with it.
    pub fn rows(&self) -> &DbcRows {
        &self.rows
    }

    /// True when the table's layout holds boxes (10 fields; the 0.5.3 – 0.9.1 one holds
    /// spheres only).
    pub fn holds_boxes(&self) -> bool {
        self.rows.fields() >= 10
    }

    /// The table's bytes, every row not edited as read.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.rows.to_bytes()
    }

    /// Every trigger, in file order.
    pub fn triggers(&self) -> Vec<AreaTrigger> {
        self.rows.rows().iter().map(|r| decode(r)).collect()
    }

    /// Trigger `id`.
    pub fn get(&self, id: u32) -> Option<AreaTrigger> {
        self.rows.get(id).map(decode)
    }

    /// Adds a trigger (its `id` ignored: one above the table's largest is given); returns the
    /// id. A box in a table of the 6-field layout is an error: those clients know spheres only.
    pub fn add(&mut self, trigger: AreaTrigger) -> Result<u32, String> {
        let id = self.rows.largest_id() + 1;
        self.put(AreaTrigger { id, ..trigger })?;
        Ok(id)
    }

    /// Puts `trigger` in place of the row with its id (or appends it).
    pub fn put(&mut self, trigger: AreaTrigger) -> Result<(), String> {
        let mut row = vec![trigger.id, trigger.map];
        row.extend(trigger.at.map(f32::to_bits));
        match trigger.shape {
            TriggerShape::Sphere { radius } => {
                if radius <= 0.0 {
                    return Err(format!("a sphere's radius must be above 0, not {radius}"));
                }
                row.push(radius.to_bits());
            }
            TriggerShape::Box {
                length,
                width,
                height,
                yaw,
            } => {
                if self.rows.fields() < 10 {
                    return Err("this client's AreaTrigger.dbc holds spheres only".into());
                }
                if [length, width, height].iter().any(|v| *v <= 0.0) {
                    return Err("a box's length, width and height must be above 0".into());
                }
                row.extend([0.0f32, length, width, height, yaw].map(f32::to_bits));
            }
        }
        self.rows.put(row);
        Ok(())
    }

    /// Removes trigger `id`; false when there was none.
    pub fn remove(&mut self, id: u32) -> bool {
        self.rows.remove(id)
    }
}

/// A row's words as a trigger.
fn decode(r: &[u32]) -> AreaTrigger {
    let f = |k: usize| r.get(k).map_or(0.0, |w| f32::from_bits(*w));
    let radius = f(5);
    AreaTrigger {
        id: r[0],
        map: r[1],
        at: [f(2), f(3), f(4)],
        shape: if radius > 0.0 || r.len() < 10 {
            TriggerShape::Sphere { radius }
        } else {
            TriggerShape::Box {
                length: f(6),
                width: f(7),
                height: f(8),
                yaw: f(9),
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spheres_and_boxes_read_back_and_old_clients_refuse_boxes() {
        let mut t =
            TriggerRows::read(&DbcRows::empty(10).to_bytes(), &ClientGeneration::V335).unwrap();
        let sphere = AreaTrigger {
            id: 0,
            map: 1,
            at: [1.0, -2.0, 3.0],
            shape: TriggerShape::Sphere { radius: 5.0 },
        };
        let boxed = AreaTrigger {
            shape: TriggerShape::Box {
                length: 10.0,
                width: 4.0,
                height: 6.0,
                yaw: 1.5,
            },
            ..sphere
        };
        assert_eq!(t.add(sphere).unwrap(), 1);
        assert_eq!(t.add(boxed).unwrap(), 2);
        let again = TriggerRows::read(&t.to_bytes(), &ClientGeneration::V335).unwrap();
        assert_eq!(
            again.triggers(),
            [
                AreaTrigger { id: 1, ..sphere },
                AreaTrigger { id: 2, ..boxed }
            ]
        );
        let mut alpha =
            TriggerRows::read(&DbcRows::empty(6).to_bytes(), &ClientGeneration::Alpha).unwrap();
        assert!(alpha.add(boxed).is_err());
        assert_eq!(alpha.add(sphere).unwrap(), 1);
        assert!(
            TriggerRows::read(&DbcRows::empty(6).to_bytes(), &ClientGeneration::V335).is_none()
        );
        assert!(
            t.add(AreaTrigger {
                shape: TriggerShape::Sphere { radius: 0.0 },
                ..sphere
            })
            .is_err()
        );
    }
}
