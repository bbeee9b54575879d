//! Go to & bookmarks as a component, and the servers' coordinates: flying the camera to a
//! typed place (a `.go xyz` line, world x y z, a tile and chunk), the open map's named views
//! (kept with the settings, beside the map's remembered camera), and Copy .go xyz.
//!
//! Not for: reading places or writing `.go xyz` lines (`model::server_coords`) or the window
//! (`ui::dialogs::places`).

use crate::app::component::Component;
use crate::app::context::AppCtx;
use crate::app::settings::Bookmark;
use crate::app::view::{View, go_to_tile};
use crate::command::{Command, Intent, PlacesIntent};
use crate::doc::session::Session;
use crate::model::server_coords::{Place, go_xyz, parse_place};
use crate::ui::dialogs::places::{PlacesFields, PlacesView};

/// How far from a typed point the camera stands, in yards: near enough to see the spot, far
/// enough to see around it.
const VIEW_DISTANCE: f32 = 80.0;

/// The Go to & bookmarks window, when open.
#[derive(Debug, Default)]
pub struct Places {
    open: bool,
    fields: PlacesFields,
    error: Option<String>,
}

/// The Map.dbc id the servers know the open map by: its row in the client's table, or, for a
/// map the table does not list yet (a new map), the id Export for client would give it (one
/// above the largest); `None` without a client.
pub fn map_id(cx: &AppCtx) -> Option<u32> {
    let client = cx.doc.client.as_ref()?;
    let session = cx.doc.session.as_ref()?;
    client.map_id(&session.map.name).or_else(|| {
        let largest = client.maps.iter().map(|(id, ..)| *id).max()?;
        u32::try_from(largest + 1).ok()
    })
}

/// The `.go xyz` line of the point under the cursor, else of the camera.
pub fn current_go_xyz(cx: &AppCtx) -> Option<String> {
    cx.doc.session.as_ref()?;
    let at = cx
        .view
        .hover
        .map(|p| p.world)
        .unwrap_or(cx.view.camera.position);
    Some(go_xyz(at, map_id(cx)))
}

/// Puts the camera in view of `place`: a tile framed whole, a chunk or a point from
/// [`VIEW_DISTANCE`] away, looking down at it (at the ground under it when no height is given).
pub fn fly_to(view: &mut View, session: Option<&Session>, place: &Place) {
    if let Place::Tile(tile, None) = place {
        go_to_tile(view, session, *tile);
        return;
    }
    let [x, y] = place.world_xy();
    let given = match place {
        Place::World { z, .. } => *z,
        Place::Tile(..) => None,
    };
    let ground = session.and_then(|s| crate::edit::lattice::height_at(&s.map, x, y));
    let z = given
        .or(ground.map(f64::from))
        .unwrap_or(view.camera.position[2] - 100.0);
    view.camera.frame([x, y, z], VIEW_DISTANCE);
    view.gone_to = crate::model::TileCoord::containing(x, y);
}

impl Places {
    fn places(&mut self, intent: PlacesIntent, cx: &mut AppCtx) {
        let key = cx.doc.session.as_ref().map(Session::key);
        match intent {
            PlacesIntent::GoTo(text) => match parse_place(&text) {
                Ok(place) => {
                    self.error = None;
                    if let Place::World {
                        map_id: Some(want), ..
                    } = place
                        && let Some(here) = map_id(cx)
                        && want != here
                    {
                        cx.say(format!(
                            "That line is for map {want}; this map is {here}: flown to the \
                             same coordinates here"
                        ));
                    }
                    fly_to(&mut cx.view, cx.doc.session.as_ref(), &place);
                }
                Err(e) => self.error = Some(e),
            },
            PlacesIntent::Save(name) => {
                if let Some(key) = key {
                    let marks = cx.settings.per_map.bookmarks.entry(key).or_default();
                    marks.push(Bookmark {
                        name,
                        camera: cx.view.camera,
                    });
                }
            }
            PlacesIntent::Jump(i) => {
                let mark = key.and_then(|k| cx.settings.bookmarks_for(&k).get(i).cloned());
                if let Some(mark) = mark {
                    cx.view.camera = mark.camera;
                }
            }
            PlacesIntent::Rename(i, name) => {
                let marks = key.and_then(|k| cx.settings.per_map.bookmarks.get_mut(&k));
                if let Some(mark) = marks.and_then(|m| m.get_mut(i))
                    && !name.is_empty()
                {
                    mark.name = name;
                }
            }
            PlacesIntent::Delete(i) => {
                if let Some(k) = key
                    && let Some(marks) = cx.settings.per_map.bookmarks.get_mut(&k)
                    && i < marks.len()
                {
                    marks.remove(i);
                    if marks.is_empty() {
                        cx.settings.per_map.bookmarks.remove(&k);
                    }
                }
            }
            PlacesIntent::Close => *self = Places::default(),
        }
    }
}

impl Component for Places {
    fn handle(&mut self, intent: Intent, cx: &mut AppCtx) -> Option<Intent> {
        match intent {
            Intent::Command(Command::GoTo) => self.open = true,
            Intent::Command(Command::CopyGoXyz) => match current_go_xyz(cx) {
                Some(line) => {
                    cx.egui.copy_text(line.clone());
                    cx.say(format!("Copied: {line}"));
                }
                None => cx.say("Open a map first"),
            },
            Intent::Places(p) => self.places(p, cx),
            other => return Some(other),
        }
        None
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut AppCtx) -> Vec<Intent> {
        if !self.open {
            return Vec::new();
        }
        let session = cx.doc.session.as_ref();
        let view = PlacesView {
            bookmarks: session.map(|s| {
                (cx.settings.bookmarks_for(&s.key()).iter())
                    .map(|b| b.name.clone())
                    .collect()
            }),
            error: self.error.clone(),
            camera_go: session.map(|_| go_xyz(cx.view.camera.position, map_id(cx))),
        };
        crate::ui::dialogs::places::show(ui.ctx(), &view, &mut self.fields)
    }
}
