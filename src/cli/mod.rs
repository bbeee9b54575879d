//! The command-line commands, each a small function over the library; `main.rs` only parses
//! arguments and calls [`run`].

pub mod apply;
pub mod check;
pub mod check_client;
pub mod client;
pub mod convert;
pub mod export_images;
pub mod fix;
pub mod info;
pub mod light;
pub mod minimap;
pub mod model;
pub mod new;
pub mod pipe;
pub mod problem;
pub mod progress;
pub mod recover;
pub mod sample;
#[cfg(feature = "editor")]
pub mod screenshot;
pub mod script;
pub mod server_data;
pub mod trigger;
pub mod wdl;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::format::Generation;

/// loam: a terrain editor and converter for classic World of Warcraft maps.
#[derive(Debug, Parser)]
#[command(name = "loam", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do; without a command the editor opens (on PATH, or on the bundled sample).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A .wdt, an .adt or a folder of Name_X_Y.adt tiles to open in the editor.
    pub path: Option<PathBuf>,
    /// Read the map as this generation (0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5) instead of
    /// deciding from its bytes.
    #[arg(long, value_parser = parse_generation)]
    pub from: Option<Generation>,
    /// Read textures from this game client (the folder holding Data/, or Data/ itself) for
    /// this run, instead of the one in Settings > Client data.
    #[arg(long, value_name = "DIR")]
    pub client: Option<PathBuf>,
    /// Run these operations (docs/scripting.md) on the opened map as unsaved edits.
    #[arg(long, value_name = "OPS.json")]
    pub apply: Option<PathBuf>,
}

/// Where a light stands and how far it reaches, as `light add` and `light edit` take them.
#[derive(Debug, clap::Args)]
pub struct LightPlaceArgs {
    /// The light's centre in game coordinates (as `.go xyz` takes them: x north, y west, z up).
    #[arg(long, num_args = 3, value_names = ["X", "Y", "Z"], allow_negative_numbers = true)]
    pub at: Option<Vec<f64>>,
    /// Inside INNER yards the light is whole; beyond OUTER it gives nothing.
    #[arg(long, num_args = 2, value_names = ["INNER", "OUTER"])]
    pub radius: Option<Vec<f64>>,
    /// Keys of one colour band of the light: NAME=HH:MM=RRGGBB (names: sky-top, fog,
    /// ocean-deep … as `loam light add --help` lists them). All the keys given for a band
    /// replace its keys; a band given one key is that colour all day.
    #[arg(long = "band", value_name = "NAME=HH:MM=RRGGBB")]
    pub bands: Vec<String>,
    /// The distance (yards) at which the fog is whole, all day.
    #[arg(long, value_name = "YARDS")]
    pub fog_end: Option<f64>,
    /// The archive to write the tables into (default: the one loam writes the client's
    /// tables into: Data/<locale>/patch-<locale>-4.MPQ for 3.3.5, Data/patch-4.MPQ for 1.12).
    #[arg(long, value_name = "NAME")]
    pub patch_name: Option<String>,
}

/// `loam light`'s actions.
#[derive(Debug, Subcommand)]
pub enum LightCommand {
    /// One line per light of MAP: id, game x y z (or `global`), inner and outer radius in
    /// yards, parameter set ids.
    List {
        /// The game client folder (the one holding Data/, or Data/ itself).
        client: PathBuf,
        /// The map, by its Map.dbc directory name (its folder under World\Maps).
        map: String,
    },
    /// Add a light to MAP, with copies of another light's parameter sets; prints its id.
    Add {
        /// The game client folder (the one holding Data/, or Data/ itself).
        client: PathBuf,
        /// The map, by its Map.dbc directory name.
        map: String,
        /// The light whose parameter sets to copy (default: the map's global light).
        #[arg(long, value_name = "ID")]
        like: Option<u32>,
        /// Place, reach, bands, archive.
        #[command(flatten)]
        place: LightPlaceArgs,
    },
    /// Move, resize or recolour light ID.
    Edit {
        /// The game client folder (the one holding Data/, or Data/ itself).
        client: PathBuf,
        /// The light's Light.dbc id.
        id: u32,
        /// Place, reach, bands, archive.
        #[command(flatten)]
        place: LightPlaceArgs,
    },
    /// Remove light ID (and the parameter sets no other light uses).
    Remove {
        /// The game client folder (the one holding Data/, or Data/ itself).
        client: PathBuf,
        /// The light's Light.dbc id.
        id: u32,
        /// The archive to write the tables into (as for `light add`).
        #[arg(long, value_name = "NAME")]
        patch_name: Option<String>,
    },
}

/// `loam trigger`'s actions.
#[derive(Debug, Subcommand)]
pub enum TriggerCommand {
    /// One line per area trigger of MAP: id, game x y z, `sphere R` or `box L W H YAW_DEGREES`.
    List {
        /// The game client folder (the one holding Data/, or Data/ itself).
        client: PathBuf,
        /// The map, by its Map.dbc directory name.
        map: String,
    },
    /// Add an area trigger to MAP; prints its id.
    Add {
        /// The game client folder (the one holding Data/, or Data/ itself).
        client: PathBuf,
        /// The map, by its Map.dbc directory name.
        map: String,
        /// Its centre in game coordinates (as `.go xyz`).
        #[arg(long, num_args = 3, value_names = ["X", "Y", "Z"], allow_negative_numbers = true, required = true)]
        at: Vec<f64>,
        /// A sphere of this radius (yards).
        #[arg(
            long,
            value_name = "R",
            conflicts_with = "box_size",
            required_unless_present = "box_size"
        )]
        radius: Option<f64>,
        /// A box: length (along its yaw), width, height (yards) and yaw (degrees; stored in
        /// radians).
        #[arg(long = "box", num_args = 4, value_names = ["LENGTH", "WIDTH", "HEIGHT", "YAW_DEGREES"], allow_negative_numbers = true)]
        box_size: Option<Vec<f64>>,
        /// Where the trigger teleports to: map id, game x y z, orientation (radians, as the
        /// servers' target_orientation).
        #[arg(long, num_args = 5, value_names = ["MAPID", "X", "Y", "Z", "O"], allow_negative_numbers = true, requires_all = ["name", "sql"])]
        teleport_to: Option<Vec<f64>>,
        /// The teleport's name (its areatrigger_teleport row's name).
        #[arg(long, value_name = "TEXT", requires = "teleport_to")]
        name: Option<String>,
        /// The SQL file to add the areatrigger_teleport row to (made when missing).
        #[arg(long, value_name = "FILE", requires = "teleport_to")]
        sql: Option<PathBuf>,
        /// The archive to write the table into (as for `light add`).
        #[arg(long, value_name = "NAME")]
        patch_name: Option<String>,
    },
    /// Remove area trigger ID.
    Remove {
        /// The game client folder (the one holding Data/, or Data/ itself).
        client: PathBuf,
        /// The trigger's AreaTrigger.dbc id.
        id: u32,
        /// The archive to write the table into (as for `light add`).
        #[arg(long, value_name = "NAME")]
        patch_name: Option<String>,
    },
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Describe a map (.wdt with its tiles) or a tile (.adt): generation, tiles, textures,
    /// objects, liquids, flags; or a model (.m2, .mdx, .wmo): format, version, vertices,
    /// triangles, textures, doodad sets, bounds.
    Info {
        /// A .wdt, an .adt, a folder of Name_X_Y.adt tiles without a WDT, or a model file.
        path: PathBuf,
        /// Print JSON for scripts instead of text.
        #[arg(long)]
        json: bool,
        /// Read the map as this generation (0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5) instead of
        /// deciding from its bytes.
        #[arg(long, value_parser = parse_generation)]
        from: Option<Generation>,
        /// For a model: read it and its companions (.skin, WMO groups) from this game client
        /// (PATH is then a game path, e.g. World\...\X.wmo). For a map: name each area id
        /// from the client's AreaTable.dbc.
        #[arg(long, value_name = "DIR")]
        client: Option<PathBuf>,
    },
    /// Validate maps or tiles; exits 1 and prints one line per problem when any is found.
    Check {
        /// .wdt or .adt files, or folders of tiles.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Read the map as this generation (0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5) instead of
        /// deciding from its bytes.
        #[arg(long, value_parser = parse_generation)]
        from: Option<Generation>,
        /// List seams larger than this many yards, largest first; smaller ones are one count line
        /// and not problems.
        #[arg(long, value_name = "YD", default_value_t = check::DEFAULT_SEAM_THRESHOLD)]
        seam_threshold: f32,
        /// Also check what the map needs of this game client and of a server that extracts it:
        /// its Map.dbc row, a WDT with MWMO, liquid types and area ids the client's tables
        /// define.
        #[arg(long, value_name = "DIR")]
        client: Option<PathBuf>,
    },
    /// Repair a map (.wdt with its tiles) or a tile (.adt) and write all of it, in the same
    /// generation, to a folder. Choose the fixes with flags.
    Fix {
        /// Give every vertex shared by neighbouring chunks and tiles one height (the mean of its
        /// copies) and recompute the normals around it.
        #[arg(long)]
        seams: bool,
        /// Give every object that shares its uniqueId with a different object (another model or
        /// place) a fresh uid above the map's largest; the first in tile row order keeps it.
        #[arg(long)]
        uids: bool,
        /// Bake every chunk's shadow map (MCSH) from the terrain of its tile and the tiles
        /// around it, and set the chunk's "has shadow" flag.
        #[arg(long)]
        shadows: bool,
        /// The sun for --shadows: azimuth in degrees clockwise from north (world +x) toward east,
        /// of the direction the light comes from, and elevation in degrees above the horizon.
        /// Default: 315 55, the sun of Blizzard's own baked maps (docs/shadows.md).
        #[arg(long, num_args = 2, value_names = ["AZ", "EL"], allow_negative_numbers = true, requires = "shadows")]
        sun: Option<Vec<f64>>,
        /// With --shadows: add the shadows the placed doodads and WMOs cast, their models read
        /// from the map's folder and, with --client, the game client (docs/shadows.md).
        #[arg(long, requires = "shadows")]
        models: bool,
        /// The game client --models reads models from (the folder holding Data/).
        #[arg(long, value_name = "DIR", requires = "models")]
        client: Option<PathBuf>,
        /// Work out every chunk's ground-effect texture map (which layer's detail doodads grow
        /// in each of its 8×8 cells) again from its alpha maps (docs/ground-effects.md).
        #[arg(long)]
        ground_effects: bool,
        /// Give every tile flight bounds (MFBO, 3.3.5 maps only) that clear its terrain and
        /// WMOs: added where a tile has none, widened where the ground pokes through its own
        /// (docs/flight-bounds.md).
        #[arg(long)]
        flight_bounds: bool,
        /// Yards the flight ceiling keeps above the highest ground or WMO near each of its
        /// points, and the floor below the lowest. Default: 400 75, from Blizzard's planes.
        #[arg(long, num_args = 2, value_names = ["ABOVE", "BELOW"], allow_negative_numbers = true, requires = "flight_bounds")]
        flight_margin: Option<Vec<f32>>,
        /// With --flight-bounds: replace each tile's planes by a fresh fit instead of only
        /// widening them (hand-set ones are lost).
        #[arg(long, requires = "flight_bounds")]
        refit_flight_bounds: bool,
        /// A .wdt (with its tiles), one .adt, or a folder of tiles.
        map: PathBuf,
        /// Folder that receives the files of the same names.
        out: PathBuf,
        /// Read the map as this generation (0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5) instead of
        /// deciding from its bytes.
        #[arg(long, value_parser = parse_generation)]
        from: Option<Generation>,
    },
    /// Convert a map or tile to another client generation, printing what was dropped or changed.
    Convert {
        /// Target generation: 0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5.
        #[arg(long, value_parser = parse_generation)]
        to: Generation,
        /// CSV of `old,new` area id pairs to translate area ids (otherwise they pass through).
        #[arg(long)]
        area_map: Option<PathBuf>,
        /// A .wdt (the whole map folder around it is converted), one .adt, or a folder of
        /// Name_X_Y.adt tiles without a WDT (a WDT is then written for targets that need one).
        src: PathBuf,
        /// Read the map as this generation (0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5) instead of
        /// deciding from its bytes.
        #[arg(long, value_parser = parse_generation)]
        from: Option<Generation>,

        /// Folder that receives files of the same names.
        dst: PathBuf,
        /// Also pack the written files into what the client loads: a patch archive
        /// (1.12, 3.3.5) or per-file archives (0.5.x), in DST or the --client's Data folder.
        #[arg(long)]
        pack: bool,
        /// The patch archive's name (e.g. patch-A.MPQ); default the first free patch-4 … patch-Z.
        #[arg(long, value_name = "patch-X.MPQ", requires = "pack")]
        patch_name: Option<String>,
        /// With --pack: write the archives into this game client's Data folder.
        #[arg(long, value_name = "DIR", requires = "pack")]
        client: Option<PathBuf>,
        /// Do not write the WDL (low-resolution heights) beside the WDT.
        #[arg(long)]
        no_wdl: bool,
        /// With --client: the map's id in the client's Map.dbc when loam adds its row (default:
        /// the next free id).
        #[arg(long, value_name = "N", requires = "client")]
        map_id: Option<u32>,
        /// With --client: the name the client shows for the map when loam adds its Map.dbc row
        /// (default: the map's folder name).
        #[arg(long, value_name = "NAME", requires = "client")]
        map_name: Option<String>,
        /// With --pack: also draw the minimap (as `loam minimap` does, into DST) and pack it.
        #[arg(long, requires = "pack")]
        minimap: bool,
        /// With --client: add an AreaTable.dbc row named NAME, on the map, for each area id its
        /// chunks use that the client's table lacks (give the chunks an id with `loam new
        /// --area` or the Area brush).
        #[arg(long, value_name = "NAME", requires = "client")]
        area_name: Option<String>,
        /// With --client: also write the servers' copy of the client into OUT (as `loam
        /// server-data CLIENT OUT` does), the folder to run the servers' map extractor on.
        #[arg(long, value_name = "OUT", requires = "client")]
        server_data: Option<PathBuf>,
    },
    /// Write a map's WDL (low-resolution heights the client draws distant terrain from) from
    /// its tiles, read a few at a time.
    Wdl {
        /// A .wdt (with its tiles) or a folder of tiles.
        map: PathBuf,
        /// Folder to write Name.wdl into (default: the map's folder).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Read the map as this generation (0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5) instead of
        /// deciding from its bytes.
        #[arg(long, value_parser = parse_generation)]
        from: Option<Generation>,
    },
    /// Describe a game client folder (the one holding Data/, or Data/ itself): its generation,
    /// its MPQ archives in the order the client loads them (the last one wins) and its maps.
    Client {
        /// The game folder or its Data folder.
        dir: PathBuf,
        /// Print the paths matching this glob (case-insensitive; `*` and `?` within a folder,
        /// `**` across folders; without a `\` or `/` it matches file names) and which archive
        /// or loose file serves each.
        #[arg(long, value_name = "GLOB")]
        find: Option<String>,
        /// List the maps the client serves (folder, and Map.dbc's id and display name), one
        /// per line, instead of the archives.
        #[arg(long, conflicts_with = "find")]
        maps: bool,
    },
    /// Describe a model file (.m2, .mdx or .wmo) as loam reads it: format, vertices,
    /// triangles, batches, textures with blend modes, bounds; for a WMO its groups and doodads.
    Model {
        /// The model file (with --client: its path inside the client, e.g. World\...\X.wmo).
        file: PathBuf,
        /// Read FILE and its companions (.skin, WMO groups) from this game client.
        #[arg(long, value_name = "DIR")]
        client: Option<PathBuf>,
        /// Print JSON for scripts instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Make a new map: `loam new NAME --to GEN --tiles X0 Y0 X1 Y1 OUT` writes a WDT, a flat
    /// tile for every tile in the rectangle and the WDL (0.5.x: the monolithic WDT);
    /// `loam new NAME --to GEN --wmo PATH OUT` a WMO-only map. `loam new --add-tiles X0 Y0 X1
    /// Y1 MAP` and `--remove-tiles X0 Y0 X1 Y1 MAP` change the tiles of the map MAP (a .wdt).
    New {
        /// NAME OUT for a new map; MAP (its .wdt) with --add-tiles or --remove-tiles.
        #[arg(required = true, num_args = 1..=2, value_names = ["NAME", "OUT"])]
        args: Vec<String>,
        /// The generation to write: 0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5.
        #[arg(long, value_parser = parse_generation)]
        to: Option<Generation>,
        /// The rectangle of tiles (X Y as in Name_X_Y.adt, corners included).
        #[arg(long, num_args = 4, value_names = ["X0", "Y0", "X1", "Y1"])]
        tiles: Option<Vec<usize>>,
        /// A WMO-only map: the WMO's game path (read from --client, or from under OUT).
        #[arg(long, value_name = "PATH", conflicts_with = "tiles")]
        wmo: Option<String>,
        /// Add these tiles (flat, meeting the tiles beside them) to the map MAP.
        #[arg(long, num_args = 4, value_names = ["X0", "Y0", "X1", "Y1"], conflicts_with_all = ["tiles", "wmo", "to"])]
        add_tiles: Option<Vec<usize>>,
        /// Remove these tiles from the map MAP (their files are deleted).
        #[arg(long, num_args = 4, value_names = ["X0", "Y0", "X1", "Y1"], conflicts_with_all = ["tiles", "wmo", "to", "add_tiles"])]
        remove_tiles: Option<Vec<usize>>,
        /// The height of the new tiles, in yards.
        #[arg(
            long,
            value_name = "H",
            default_value_t = 0.0,
            allow_negative_numbers = true
        )]
        height: f32,
        /// The new tiles' texture (a game path).
        #[arg(long, value_name = "PATH")]
        texture: Option<String>,
        /// The area id of every new chunk.
        #[arg(long, value_name = "ID", default_value_t = 0)]
        area: u32,
        /// A game client that must hold the texture (checked), and from which --wmo is read.
        #[arg(long, value_name = "DIR")]
        client: Option<PathBuf>,
    },
    /// Draw a map's minimap (each tile from above, 256×256, DXT1 BLP) as the client's files
    /// under OUT: textures/Minimap/<md5>.blp and md5translate.trs (md5translate.txt for 0.5.x
    /// and 0.6.0). Only the tiles that changed since the last run into OUT are drawn again.
    Minimap {
        /// A .wdt (with its tiles), a folder of tiles, or a 0.5.x WDT.
        map: PathBuf,
        /// The folder that receives textures/Minimap/….
        out: PathBuf,
        /// Read textures from this game client, and keep its md5translate table's other maps.
        #[arg(long, value_name = "DIR")]
        client: Option<PathBuf>,
        /// Read the map as this generation (0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5) instead of
        /// deciding from its bytes.
        #[arg(long, value_parser = parse_generation)]
        from: Option<Generation>,
    },
    /// Write a map's tiles as images into OUT, in Noggit Red's layouts and names: heights as
    /// 16-bit grey Name_X_Y_height.png (257×257), each texture's alpha as 8-bit grey
    /// Name_X_Y_<texture>.png (1024×1024), vertex colours as RGB Name_X_Y_vcol.png (257×257).
    /// Without --heights, --alpha or --colours, all three.
    ExportImages {
        /// A .wdt (with its tiles), a folder of tiles, or a 0.5.x WDT.
        map: PathBuf,
        /// The folder that receives the images.
        out: PathBuf,
        /// Heightmaps.
        #[arg(long)]
        heights: bool,
        /// Alpha maps.
        #[arg(long)]
        alpha: bool,
        /// Vertex colours.
        #[arg(long)]
        colours: bool,
        /// The height of pixel value 0 (with --max; default: the map's lowest, recorded in
        /// OUT/Name_heights.json so that an import without a range puts every height back).
        #[arg(long, requires = "max", allow_hyphen_values = true)]
        min: Option<f32>,
        /// The height of pixel value 65535 (with --min; default: the map's highest).
        #[arg(long, requires = "min", allow_hyphen_values = true)]
        max: Option<f32>,
        /// Heights as 32-bit float TIFF (Name_X_Y_height.tif, 0..1 over the range) instead of
        /// 16-bit PNG: no quantisation at all.
        #[arg(long)]
        float: bool,
        /// Read the map as this generation (0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5) instead of
        /// deciding from its bytes.
        #[arg(long, value_parser = parse_generation)]
        from: Option<Generation>,
    },
    /// Write OUT/Data: the client's archives as the servers' map extractors need them. They
    /// read a fixed list (1.12: patch.MPQ and patch-2.MPQ; 3.3.5: up to patch-5.MPQ and
    /// patch-<locale>-4.MPQ), so custom patches beyond it are merged into its last one; every
    /// other archive is linked (or copied). Run the extractor on OUT.
    ServerData {
        /// The game client (its folder or its Data folder); only read.
        client: PathBuf,
        /// A new folder that receives Data/.
        out: PathBuf,
    },
    /// The zone lights of a client's tables (Light.dbc): list, add, edit, remove.
    Light {
        /// What to do with them.
        #[command(subcommand)]
        action: LightCommand,
    },
    /// The area triggers of a client's tables (AreaTrigger.dbc): list, add, remove.
    Trigger {
        /// What to do with them.
        #[command(subcommand)]
        action: TriggerCommand,
    },
    /// Write the bundled sample map (2×2 tiles, generated by loam) into a folder.
    Sample {
        /// Folder to write Sample.wdt and its tiles into.
        out: PathBuf,
    },
    #[cfg(feature = "editor")]
    /// Open the editor window on a map (the sample when left out), wait until the tiles in view
    /// are drawn, save a PNG of the window and exit.
    Screenshot(screenshot::ShotArgs),
    /// Apply brush and object operations from a JSON file (see docs/scripting.md) and save the result.
    Apply {
        /// A .wdt (with its tiles), one .adt, or a folder of tiles.
        map: PathBuf,
        /// The operations file.
        ops: PathBuf,
        /// Target generation: 0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5.
        #[arg(long, value_parser = parse_generation)]
        to: Generation,
        /// Folder that receives the saved files.
        out: PathBuf,
        /// Read the map as this generation (0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5) instead of
        /// deciding from its bytes.
        #[arg(long, value_parser = parse_generation)]
        from: Option<Generation>,
        /// Read the models that object operations place from this game client (their boxes
        /// decide which tiles and chunks list them); the map's own folder is searched first.
        #[arg(long, value_name = "DIR")]
        client: Option<PathBuf>,
        /// After running the operations through the editor's history (each one undo step, as
        /// the editor records them), undo the last N before writing.
        #[arg(long, value_name = "N")]
        undo: Option<usize>,
    },
    /// What the editor's autosave kept of maps it did not save (a crash, a kill): `--list` the
    /// maps, a map's recovered undo steps (`MAP --history`), or the map written with its
    /// autosaved tiles (`MAP OUT --to VERSION [--undo N]`).
    Recover {
        /// The map as the editor opened it (the path it was given).
        map: Option<PathBuf>,
        /// Folder that receives the recovered map.
        out: Option<PathBuf>,
        /// List the maps with an autosave: path, time (UTC) and undo steps, one a line.
        #[arg(long, conflicts_with_all = ["map", "out", "history", "to", "undo"])]
        list: bool,
        /// Print MAP's recovered undo steps, oldest first, one a line.
        #[arg(long, requires = "map", conflicts_with_all = ["out", "to", "undo"])]
        history: bool,
        /// Target generation of OUT: 0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5.
        #[arg(long, value_parser = parse_generation, requires = "out")]
        to: Option<Generation>,
        /// Undo the recovered history's last N steps before writing.
        #[arg(long, value_name = "N", requires = "out")]
        undo: Option<usize>,
    },
    /// Run one stroke of a Lua brush (docs/scripting.md, "Lua brushes") on a map and save the
    /// result as `apply` does.
    Script {
        /// A .wdt (with its tiles), one .adt, or a folder of tiles.
        map: PathBuf,
        /// The script (.lua) that declares the brush.
        file: PathBuf,
        /// The brush's name, as the script declares it.
        #[arg(long)]
        brush: String,
        /// The stroke's points in world coordinates (x north, y west): "x,y;x,y…"; one point
        /// is one dab.
        #[arg(long, allow_hyphen_values = true)]
        points: String,
        /// Brush radius in yards.
        #[arg(long)]
        radius: f32,
        /// Brush strength, 0 to 1 (default 1).
        #[arg(long)]
        strength: Option<f32>,
        /// A parameter of the brush, KEY=VALUE (repeatable).
        #[arg(long = "param", value_name = "KEY=VALUE")]
        params: Vec<String>,
        /// Seconds the stroke may run before it is stopped and nothing is written (default 10).
        #[arg(long, value_name = "SECONDS")]
        time_limit: Option<f64>,
        /// Target generation: 0.5.3, 0.5.5, 0.6.0, 1.12 or 3.3.5.
        #[arg(long, value_parser = parse_generation)]
        to: Generation,
        /// Folder that receives the saved files.
        out: PathBuf,
        /// Read the map as this generation instead of deciding from its bytes.
        #[arg(long, value_parser = parse_generation)]
        from: Option<Generation>,
        /// Read the models the script places from this game client (their boxes decide which
        /// tiles and chunks list them); the map's own folder is searched first.
        #[arg(long, value_name = "DIR")]
        client: Option<PathBuf>,
    },
}

fn parse_generation(s: &str) -> Result<Generation, String> {
    s.parse()
}

/// Sorts `loam new`'s words into what it was asked to do.
fn new_args(
    args: Vec<String>,
    to: Option<Generation>,
    tiles: Option<Vec<usize>>,
    wmo: Option<String>,
    add: Option<Vec<usize>>,
    remove: Option<Vec<usize>>,
) -> Result<new::NewArgs, crate::disk::LoamError> {
    use crate::disk::LoamError::Usage;
    let one_map = |flag: &str| match args.as_slice() {
        [map] => Ok(PathBuf::from(map)),
        _ => Err(Usage(format!(
            "{flag} takes one MAP (its .wdt), not NAME OUT"
        ))),
    };
    if let Some(v) = add {
        let tiles = new::tile_rect("--add-tiles", &v)?;
        return Ok(new::NewArgs::Add {
            map: one_map("--add-tiles")?,
            tiles,
        });
    }
    if let Some(v) = remove {
        let tiles = new::tile_rect("--remove-tiles", &v)?;
        return Ok(new::NewArgs::Remove {
            map: one_map("--remove-tiles")?,
            tiles,
        });
    }
    let [name, out] = args.as_slice() else {
        return Err(Usage(
            "loam new NAME --to GEN --tiles X0 Y0 X1 Y1 OUT".into(),
        ));
    };
    let to = to.ok_or_else(|| Usage("--to GEN: which generation to write".into()))?;
    let (name, out) = (name.clone(), PathBuf::from(out));
    match (tiles, wmo) {
        (Some(v), None) => Ok(new::NewArgs::Map {
            name,
            out,
            to,
            tiles: new::tile_rect("--tiles", &v)?,
        }),
        (None, Some(wmo)) => Ok(new::NewArgs::WmoOnly { name, out, to, wmo }),
        _ => Err(Usage(
            "a new map needs --tiles X0 Y0 X1 Y1 (terrain) or --wmo PATH (WMO-only)".into(),
        )),
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Some(Command::Info {
            path,
            json,
            from,
            client,
        }) => {
            if model::is_model_path(&path) {
                model::run(&path, client.as_deref(), json)
            } else {
                info::run(&path, json, from, client.as_deref())
            }
        }
        Some(Command::Check {
            paths,
            seam_threshold,
            from,
            client,
        }) => check::run(&paths, seam_threshold, from, client.as_deref()),
        Some(Command::Fix {
            seams,
            uids,
            shadows,
            sun,
            ground_effects,
            models,
            client,
            flight_bounds,
            flight_margin,
            refit_flight_bounds,
            map,
            out,
            from,
        }) => fix::sun_from_args(sun.as_deref()).and_then(|sun| {
            let margins = fix::margins_from_args(flight_margin.as_deref())?;
            let fixes = fix::Fixes {
                seams,
                uids,
                shadows: shadows.then_some(sun),
                ground_effects,
                flight_bounds: flight_bounds.then_some(fix::FlightFix {
                    margins,
                    refit: refit_flight_bounds,
                }),
                models: models
                    .then(|| fix::ModelSource::open(&map, client.as_deref()))
                    .transpose()?,
            };
            fix::run(&map, &out, &fixes, from)
        }),
        Some(Command::Convert {
            to,
            area_map,
            src,
            dst,
            from,
            pack,
            patch_name,
            client,
            no_wdl,
            map_id,
            map_name,
            minimap,
            area_name,
            server_data,
        }) => convert::run(
            &src,
            &dst,
            to,
            from,
            area_map.as_deref(),
            &convert::Extras {
                wdl: !no_wdl,
                pack,
                patch_name,
                client,
                table: crate::pipeline::tables::TableRequest {
                    name: map_name,
                    id: map_id,
                    area: 0,
                    area_name,
                    map_areas: Vec::new(),
                },
                minimap,
                server_data,
            },
        ),
        Some(Command::Wdl { map, out, from }) => wdl::run(&map, out.as_deref(), from),
        Some(Command::Apply {
            map,
            ops,
            to,
            out,
            from,
            client,
            undo,
        }) => apply::run(
            &map,
            &ops,
            to,
            from,
            client.as_deref(),
            &out,
            undo.unwrap_or(0),
        ),
        Some(Command::Recover {
            map,
            out,
            list,
            history,
            to,
            undo,
        }) => match (map, out, to) {
            _ if list => recover::list(),
            (Some(map), None, None) if history => recover::history(&map),
            (Some(map), Some(out), Some(to)) => recover::write(&map, &out, to, undo.unwrap_or(0)),
            _ => Err(crate::disk::LoamError::Usage(
                "loam recover --list | MAP --history | MAP OUT --to VERSION [--undo N]".into(),
            )),
        },
        Some(Command::Script {
            map,
            file,
            brush,
            points,
            radius,
            strength,
            params,
            time_limit,
            to,
            out,
            from,
            client,
        }) => script::run(
            &apply::Source {
                map: &map,
                from,
                client: client.as_deref(),
            },
            &script::ScriptArgs {
                file: &file,
                brush: &brush,
                points: &points,
                radius,
                strength,
                params: &params,
                time_limit,
            },
            to,
            &out,
        ),
        Some(Command::Model { file, client, json }) => model::run(&file, client.as_deref(), json),
        Some(Command::New {
            args,
            to,
            tiles,
            wmo,
            add_tiles,
            remove_tiles,
            height,
            texture,
            area,
            client,
        }) => new_args(args, to, tiles, wmo, add_tiles, remove_tiles).and_then(|a| {
            new::run(
                a,
                &new::Ground {
                    texture,
                    height,
                    area,
                    client,
                },
            )
        }),
        Some(Command::Minimap {
            map,
            out,
            client,
            from,
        }) => minimap::run(&map, &out, client.as_deref(), from),
        Some(Command::ServerData { client, out }) => server_data::run(&client, &out),
        Some(Command::ExportImages {
            map,
            out,
            heights,
            alpha,
            colours,
            min,
            max,
            float,
            from,
        }) => {
            let all = !(heights || alpha || colours);
            let request = crate::images::export::ExportRequest {
                heights: heights || all,
                alpha: alpha || all,
                colours: colours || all,
                range: min.zip(max),
                float,
            };
            export_images::run(&map, &out, &request, from)
        }
        Some(Command::Sample { out }) => sample::run(&out),
        Some(Command::Light { action }) => light::run(action),
        Some(Command::Trigger { action }) => trigger::run(action),
        Some(Command::Client { dir, find, maps }) => client::run(&dir, find.as_deref(), maps),
        #[cfg(feature = "editor")]
        Some(Command::Screenshot(args)) => screenshot::run(args),
        #[cfg(not(feature = "editor"))]
        None => Err(crate::disk::LoamError::Usage(
            "this loam was built without the editor (cargo feature `editor`)".into(),
        )),
        #[cfg(feature = "editor")]
        None => cli
            .apply
            .as_deref()
            .map(screenshot::read_ops)
            .transpose()
            .and_then(|ops| {
                crate::app::startup::run_gui(cli.path, cli.from, cli.client, ops)
                    .map_err(crate::disk::LoamError::Usage)
            })
            .map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Prints `info` as pretty JSON when `json`, else as the text `text` makes of it (`loam info`
/// of a map or of a model).
pub(crate) fn print_info<T: serde::Serialize>(
    info: &T,
    json: bool,
    text: impl FnOnce(&T) -> String,
) -> Result<ExitCode, crate::error::LoamError> {
    if json {
        let out = serde_json::to_string_pretty(info)
            .map_err(|e| crate::error::LoamError::Usage(e.to_string()))?;
        println!("{out}");
    } else {
        print!("{}", text(info));
    }
    Ok(ExitCode::SUCCESS)
}
