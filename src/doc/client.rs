//! The game client the editor reads textures (and later models) from: the folder the user chose
//! in Settings ▸ Client data (or `--client`), opened once, and the byte source the texture
//! worker reads through (the map's own folder first, then the client's archives and loose
//! files).
//!
//! A folder that is not a game client (no `Data/` with archives) is still useful: users
//! often have the client's files extracted. Such a folder is searched for loose files, as
//! before archives were read.
//!
//! Not for: archive reading (see `assets::client`) or decoding.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::assets::client::{
    AREA_TRIGGER_DBC, AreaNames, AreaTrigger, AssetSource, ClientData, GroundEffectNames,
    LightTables, MAP_DBC, MapRow, TriggerRows, read_map_table,
};
use crate::assets::textures::{self, ByteSource};

/// The client folder and what opening it gave.
#[derive(Debug, Clone)]
pub struct Client {
    /// The folder the user chose.
    pub dir: PathBuf,
    /// The opened client, or why the folder is not one (it is then read as extracted files).
    pub opened: Result<Arc<ClientData>, String>,
    /// The client's LiquidType.dbc rows (3.3.5), for the liquid tools' list; empty otherwise.
    pub liquid_types: Vec<crate::assets::client::ClientLiquid>,
    /// The client's zone and subzone names (AreaTable.dbc), for the status bar, the Area
    /// tool's picker and the area overlay's legend; empty when it has none loam reads.
    pub areas: Arc<AreaNames>,
    /// The client's Map.dbc rows (id, folder, name), to find the open map's zones.
    pub maps: Vec<MapRow>,
    /// The client's ground effects (GroundEffectTexture.dbc), for the Textures dialog and the
    /// ground-effects tools; empty when it has none loam reads.
    pub ground_effects: Arc<GroundEffectNames>,
    /// The client's light tables (`Ok(None)` when it has none, as a folder of extracted
    /// files), or why they cannot be read: the status bar names it and the default light is
    /// drawn (`doc::light`).
    pub lights: Result<Option<Arc<LightTables>>, String>,
    /// The client's area triggers (AreaTrigger.dbc, every map's), for View ▸ Area triggers;
    /// empty when it has none loam reads.
    pub triggers: Vec<AreaTrigger>,
}

impl Client {
    /// Opens the client in `dir`; a folder that is not one is kept as a folder of extracted
    /// files.
    pub fn open(dir: &Path) -> Client {
        let opened = ClientData::open(dir)
            .map(Arc::new)
            .map_err(|e| e.to_string());
        let liquid_types = opened
            .as_ref()
            .map(|c| c.liquid_types())
            .unwrap_or_default();
        let areas = Arc::new(opened.as_ref().map(|c| c.area_names()).unwrap_or_default());
        let ground_effects = Arc::new(
            opened
                .as_ref()
                .map(|c| c.ground_effect_names())
                .unwrap_or_default(),
        );
        let maps = opened
            .as_ref()
            .ok()
            .and_then(|c| {
                let bytes = c.read(MAP_DBC).ok().flatten()?;
                read_map_table(&bytes, c.generation())
            })
            .unwrap_or_default();
        let lights = match &opened {
            Ok(c) => c.light_tables().map(|t| t.map(Arc::new)),
            Err(_) => Ok(None),
        };
        let triggers = opened
            .as_ref()
            .ok()
            .and_then(|c| {
                let bytes = c.read(AREA_TRIGGER_DBC).ok().flatten()?;
                Some(TriggerRows::read(&bytes, c.generation())?.triggers())
            })
            .unwrap_or_default();
        Client {
            dir: dir.to_path_buf(),
            lights,
            triggers,
            opened,
            liquid_types,
            areas,
            maps,
            ground_effects,
        }
    }

    /// The Map.dbc id of the map in folder `directory` (`World\Maps\<directory>`), when
    /// the client's table names it.
    pub fn map_id(&self, directory: &str) -> Option<u32> {
        self.maps
            .iter()
            .find(|(_, d, _)| d.eq_ignore_ascii_case(directory))
            .and_then(|(id, _, _)| u32::try_from(*id).ok())
    }

    /// One line for the menu and the status bar: the generation and the archive count, or
    /// that the folder is read as extracted files.
    pub fn describe(&self) -> String {
        match &self.opened {
            Ok(c) if c.skipped().is_empty() => format!(
                "{} client, {} archive(s): {}",
                c.generation(),
                c.archives().len(),
                self.dir.display()
            ),
            Ok(c) => format!(
                "{} client, {} archive(s), {} left out ({}): {}",
                c.generation(),
                c.archives().len(),
                c.skipped().len(),
                c.skipped()[0],
                self.dir.display()
            ),
            Err(_) => format!("extracted files: {}", self.dir.display()),
        }
    }
}

/// The bytes of a game path for the open map: the map's own folder (and the game folder
/// above a `World/Maps/Name/` folder), then the client's archives and the loose files it
/// honours; for a folder of extracted files, that folder.
pub fn byte_source(client: Option<&Client>, map_folder: &Path) -> ByteSource {
    let archives = client.and_then(|c| c.opened.as_ref().ok().cloned());
    let extracted: Vec<PathBuf> = client
        .filter(|c| c.opened.is_err())
        .map(|c| vec![c.dir.clone()])
        .unwrap_or_default();
    let stack = AssetSource::new(archives, Some(map_folder.to_path_buf()));
    Arc::new(move |name: &str| {
        if let Some(bytes) = stack.read(name).map_err(|e| e.to_string())? {
            return Ok(Some(bytes));
        }
        match textures::find(name, &extracted) {
            None => Ok(None),
            Some(path) => std::fs::read(&path)
                .map(Some)
                .map_err(|e| format!("{}: {e}", path.display())),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_extracted_folder_serves_loose_files_and_the_map_folder_wins() {
        let dir = tempfile::tempdir().unwrap();
        let extracted = dir.path().join("extracted");
        std::fs::create_dir_all(extracted.join("tileset/elwynn")).unwrap();
        std::fs::write(extracted.join("tileset/elwynn/grass.blp"), b"from client").unwrap();
        std::fs::write(extracted.join("tileset/elwynn/dirt.blp"), b"client dirt").unwrap();
        let map = dir.path().join("map");
        std::fs::create_dir_all(map.join("Tileset/Elwynn")).unwrap();
        std::fs::write(map.join("Tileset/Elwynn/Dirt.blp"), b"map dirt").unwrap();

        let client = Client::open(&extracted);
        assert!(client.opened.is_err(), "no Data folder: not a client");
        assert!(client.describe().starts_with("extracted files"));
        let read = byte_source(Some(&client), &map);
        assert_eq!(
            read("Tileset\\Elwynn\\Grass.blp").unwrap().as_deref(),
            Some(&b"from client"[..])
        );
        assert_eq!(
            read("TILESET/elwynn/dirt.BLP").unwrap().as_deref(),
            Some(&b"map dirt"[..])
        );
        assert_eq!(read("Tileset\\Elwynn\\Rock.blp").unwrap(), None);
        let without = byte_source(None, &map);
        assert_eq!(without("Tileset\\Elwynn\\Grass.blp").unwrap(), None);
    }
}
