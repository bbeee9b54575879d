//! The files in `packaging/` agree with each other and with real map files: the MIME magic sorts
//! every generation's maps and tiles (and leaves WMOs alone), the desktop entry and the AppStream
//! metadata name the MIME types that are defined, the icons are the sizes their names say, the
//! window icon decodes, and an installed binary looks for the sample where the .deb puts it.
//! (`desktop-file-validate` and `appstreamcli validate` run on the same files in `.ci/package`.)

mod common;

use std::path::{Path, PathBuf};

use common::*;
use loam::format::Generation;

const DESKTOP: &str = include_str!("../packaging/loam.desktop");
const MIME: &str = include_str!("../packaging/loam-mime.xml");
const METAINFO: &str = include_str!("../packaging/loam.metainfo.xml");
const WDT_TYPE: &str = "application/x-wow-wdt";
const ADT_TYPE: &str = "application/x-wow-adt";

fn packaging(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("packaging")
        .join(rel)
}

/// Whether one `<match type="string">` holds for `bytes`, with any of its nested matches (the
/// shared-mime-info rule: a nested match must also hold when there are any).
fn magic_holds(m: roxmltree::Node, bytes: &[u8]) -> bool {
    assert_eq!(
        m.attribute("type"),
        Some("string"),
        "only string matches are used"
    );
    let value = m
        .attribute("value")
        .expect("match without value")
        .as_bytes();
    let offset: usize = m
        .attribute("offset")
        .expect("match without offset")
        .parse()
        .expect("offset is a number");
    let here = bytes.get(offset..offset + value.len()) == Some(value);
    let mut nested = m.children().filter(|c| c.has_tag_name("match")).peekable();
    here && (nested.peek().is_none() || nested.any(|c| magic_holds(c, bytes)))
}

/// The MIME types whose magic matches `bytes`, as a file manager without a file name sees them.
fn sniff(bytes: &[u8]) -> Vec<String> {
    let doc = roxmltree::Document::parse(MIME).expect("loam-mime.xml parses");
    doc.descendants()
        .filter(|n| n.has_tag_name("mime-type"))
        .filter(|t| {
            t.descendants()
                .filter(|n| n.has_tag_name("magic"))
                .flat_map(|magic| magic.children().filter(|c| c.has_tag_name("match")))
                .any(|m| magic_holds(m, bytes))
        })
        .map(|t| t.attribute("type").unwrap_or_default().to_string())
        .collect()
}

/// The MIME types loam-mime.xml defines, with their glob patterns.
fn defined_types() -> Vec<(String, Vec<String>)> {
    let doc = roxmltree::Document::parse(MIME).expect("loam-mime.xml parses");
    doc.descendants()
        .filter(|n| n.has_tag_name("mime-type"))
        .map(|t| {
            let globs = t
                .children()
                .filter(|c| c.has_tag_name("glob"))
                .filter_map(|g| g.attribute("pattern").map(str::to_string))
                .collect();
            (t.attribute("type").unwrap_or_default().to_string(), globs)
        })
        .collect()
}

fn expected_type(file_name: &str) -> &'static str {
    if file_name.to_ascii_lowercase().ends_with(".wdt") {
        WDT_TYPE
    } else {
        ADT_TYPE
    }
}

#[test]
fn mime_magic_sorts_maps_and_tiles_of_every_written_generation() {
    let mut checked = 0;
    for generation in Generation::ALL.into_iter().filter(|g| g.writable()) {
        let mut map = loam::sample::sample_map();
        loam::convert::prepare_map(&mut map, Generation::V335, generation);
        let files =
            loam::pipeline::encode_map(&map, generation, true, None).expect("sample encodes");
        for file in files {
            assert_eq!(
                sniff(&file.bytes),
                vec![expected_type(&file.name).to_string()],
                "{generation} {}",
                file.name
            );
            checked += 1;
        }
    }
    // 0.5.3 is one monolithic WDT; 0.6.0, 1.12 and 3.3.5 are a WDT and four tiles each.
    assert!(checked >= 13, "only {checked} files were sniffed");
}

#[test]
fn mime_magic_sorts_blizzard_written_maps_and_tiles() {
    for rel in ADTS.iter().chain(WDTS.iter()) {
        let bytes = std::fs::read(corpus_file(rel)).expect("corpus file reads");
        assert_eq!(sniff(&bytes), vec![expected_type(rel).to_string()], "{rel}");
    }
}

#[test]
fn mime_magic_leaves_wmo_files_alone() {
    // WMO roots and groups start with REVM too; only the chunk after it tells them apart.
    for rel in ["blizzardry/trolltent.wmo", "blizzardry/trolltent_000.wmo"] {
        let bytes = std::fs::read(corpus_file(rel)).expect("corpus file reads");
        assert_eq!(&bytes[..4], b"REVM", "{rel} starts like a map");
        assert!(
            sniff(&bytes).is_empty(),
            "{rel} was claimed: {:?}",
            sniff(&bytes)
        );
    }
}

#[test]
fn mime_globs_are_the_extensions() {
    let mut types = defined_types();
    types.sort();
    assert_eq!(
        types,
        vec![
            (ADT_TYPE.to_string(), vec!["*.adt".to_string()]),
            (WDT_TYPE.to_string(), vec!["*.wdt".to_string()]),
        ]
    );
}

/// A `Key=value` line of the desktop entry.
fn desktop_key<'a>(key: &str) -> &'a str {
    DESKTOP
        .lines()
        .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .unwrap_or_else(|| panic!("loam.desktop has no {key}="))
}

#[test]
fn desktop_entry_opens_the_defined_types_with_the_file() {
    let mut desktop_types: Vec<&str> = desktop_key("MimeType")
        .split(';')
        .filter(|t| !t.is_empty())
        .collect();
    desktop_types.sort();
    let mut defined: Vec<String> = defined_types().into_iter().map(|(t, _)| t).collect();
    defined.sort();
    assert_eq!(desktop_types, defined);
    // The file manager passes the file in place of %f; `loam PATH` opens it.
    assert_eq!(desktop_key("Exec"), "loam %f");
    assert_eq!(desktop_key("Icon"), "loam");
}

#[test]
fn metainfo_launches_the_desktop_entry_and_provides_the_types() {
    let doc = roxmltree::Document::parse(METAINFO).expect("metainfo parses");
    let text_of = |tag: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name(tag))
            .filter_map(|n| n.text().map(str::to_string))
            .collect()
    };
    let launchable = text_of("launchable");
    assert_eq!(launchable, vec!["loam.desktop".to_string()]);
    assert!(packaging(&launchable[0]).is_file());
    let mut media = text_of("mediatype");
    media.sort();
    assert_eq!(media, vec![ADT_TYPE.to_string(), WDT_TYPE.to_string()]);
    assert_eq!(text_of("binary"), vec!["loam".to_string()]);
    let release = doc
        .descendants()
        .find(|n| n.has_tag_name("release"))
        .expect("a release");
    assert_eq!(
        release.attribute("version"),
        Some(env!("CARGO_PKG_VERSION"))
    );
}

fn png_size(path: &Path) -> (u32, u32) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (reader.info().width, reader.info().height)
}

#[test]
fn icons_are_the_sizes_their_names_say() {
    for size in [16, 24, 32, 48, 64, 128, 256, 512] {
        let path = packaging(&format!("icons/loam-{size}.png"));
        assert_eq!(png_size(&path), (size, size), "{}", path.display());
    }
}

#[test]
fn windows_icon_holds_the_sizes_explorer_asks_for() {
    let ico = std::fs::read(packaging("icons/loam.ico")).expect("loam.ico reads");
    let u32_at = |at: usize| u32::from_le_bytes(ico[at..at + 4].try_into().expect("4 bytes"));
    // ICONDIR: reserved 0, type 1 (icon), count; then 16-byte entries: width (0 meaning 256),
    // height, ..., the image's size and offset. Each image is a PNG or a BMP without its file
    // header (height doubled for the mask); its own size must be the one the entry says.
    assert_eq!(&ico[..4], &[0, 0, 1, 0]);
    let count = u16::from_le_bytes([ico[4], ico[5]]) as usize;
    let mut widths = Vec::new();
    for i in 0..count {
        let entry = 6 + 16 * i;
        let width = match ico[entry] {
            0 => 256,
            w => w as u32,
        };
        let (len, offset) = (u32_at(entry + 8) as usize, u32_at(entry + 12) as usize);
        let image = &ico[offset..offset + len];
        let (w, h) = if image.starts_with(b"\x89PNG") {
            let be = |at: usize| u32::from_be_bytes(image[at..at + 4].try_into().expect("4 bytes"));
            (be(16), be(20))
        } else {
            let le = |at: usize| u32::from_le_bytes(image[at..at + 4].try_into().expect("4 bytes"));
            (le(4), le(8) / 2)
        };
        assert_eq!((w, h), (width, width), "image {i} of loam.ico");
        widths.push(width);
    }
    for size in [16, 24, 32, 48, 256] {
        assert!(widths.contains(&size), "no {size} px image in {widths:?}");
    }
}

#[test]
fn the_window_icon_decodes_and_is_set() {
    let icon = eframe::icon_data::from_png_bytes(loam::app::startup::WINDOW_ICON_PNG)
        .expect("the window icon decodes");
    assert_eq!((icon.width, icon.height), (256, 256));
    // Not a blank image: the corners are transparent and the middle is opaque.
    let alpha = |x: usize, y: usize| icon.rgba[(y * 256 + x) * 4 + 3];
    assert_eq!(alpha(0, 0), 0);
    assert_eq!(alpha(128, 128), 255);
    let options = loam::app::startup::native_options([640.0, 480.0], false);
    assert!(options.viewport.icon.is_some());
}

#[test]
fn an_installed_binary_looks_in_share_loam_and_a_zip_beside_itself() {
    let roots = loam::app::startup::sample_roots(Path::new("/usr/bin/loam"));
    assert!(
        roots.contains(&PathBuf::from("/usr/share/loam")),
        "{roots:?}"
    );
    // The Windows zip keeps resources/ beside loam.exe.
    let unpacked = Path::new("/home/me/loam-0.1.0-windows");
    let roots = loam::app::startup::sample_roots(&unpacked.join("loam.exe"));
    assert_eq!(roots.first(), Some(&unpacked.to_path_buf()));
}
