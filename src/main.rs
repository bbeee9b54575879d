//! The `loam` binary: parses the command line and hands over to the library.

// On Windows the exe is a GUI program, so opening the editor from Explorer shows no console
// window behind it; `attach_parent_console` gives the commands back their console.
#![cfg_attr(windows, windows_subsystem = "windows")]

use clap::Parser;

fn main() -> std::process::ExitCode {
    attach_parent_console();
    loam::cli::pipe::end_quietly_on_closed_pipe();
    loam::cli::run(loam::cli::Cli::parse())
}

/// Windows: prints of `loam info` and the other commands (and of `--help`, before any command is
/// known) reach the console `loam` was typed in. Started from Explorer there is none and the call
/// does nothing; output redirected to a file keeps its handles, which attaching leaves alone.
#[cfg(windows)]
fn attach_parent_console() {
    use windows_sys::Win32::System::Console::{ATTACH_PARENT_PROCESS, AttachConsole};
    // SAFETY: AttachConsole takes a process id by value and touches no memory of ours.
    unsafe {
        AttachConsole(ATTACH_PARENT_PROCESS);
    }
}

/// Elsewhere the binary is a console program already.
#[cfg(not(windows))]
fn attach_parent_console() {}
