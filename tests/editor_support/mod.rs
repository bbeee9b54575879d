//! The editor as the kittest files drive it: one harness builder, so that every editor test
//! opens the real app the same way (1280×800, enough frames for the workers to answer).
#![allow(dead_code)]

use std::path::PathBuf;

use egui_kittest::Harness;
use loam::app::dialogs::ScriptedDialogs;
use loam::app::recovery::Recovery;
use loam::app::{LoamApp, StartOptions};

/// How the app is started.
#[derive(Default)]
pub struct Opening {
    /// The map to open (the bundled sample when `None`).
    pub open: Option<PathBuf>,
    /// The game client folder (`--client`).
    pub client: Option<PathBuf>,
    /// Answers for the file dialogs.
    pub dialogs: ScriptedDialogs,
    /// Frames 1/60 s apart, as a window has them (two clicks in a row make a double click);
    /// otherwise kittest's default of a quarter second.
    pub window_frames: bool,
    /// Autosave and recovery in this folder (off when `None`).
    pub recovery: Option<PathBuf>,
}

/// The app under kittest, started as `opening` says.
pub fn harness(opening: Opening) -> Harness<'static, LoamApp> {
    let Opening {
        open,
        client,
        dialogs,
        window_frames,
        recovery,
    } = opening;
    let mut builder = Harness::builder().with_size(egui::vec2(1280.0, 800.0));
    if window_frames {
        builder = builder.with_step_dt(1.0 / 60.0);
    }
    builder
        // Workers (the asset browser's catalogue, the object scene's model readers) ask for a
        // repaint with each answer: a map with many models takes more frames to settle.
        .with_max_steps(256)
        .build_eframe(move |cc| {
            let app = LoamApp::new(
                cc,
                StartOptions {
                    open,
                    dialogs: Box::new(dialogs),
                    screenshot: None,
                    read_as: None,
                    client,
                },
            );
            match recovery {
                Some(root) => app.with_recovery(Recovery::at(root)),
                None => app,
            }
        })
}
