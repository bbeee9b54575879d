//! `loam.com` in the Windows zip: the console side of `loam.exe`.
//!
//! `loam.exe` is a GUI program, so that a double-click opens the editor without a console
//! window behind it; but a command prompt does not wait for a GUI program, so its output came
//! after the prompt and its exit code was lost. Typed as `loam` (without `.exe`), `cmd` and
//! PowerShell find `loam.com` first (PATHEXT lists `.COM` before `.EXE`): this console program
//! runs `loam.exe` beside it with the same arguments and the same console, waits, and returns
//! its exit code. Visual Studio's `devenv.com` does the same for `devenv.exe`.
//!
//! Not for: anything else. It knows no command; elsewhere than Windows it only says so.

use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    if !cfg!(windows) {
        eprintln!("loam-console is loam.com of the Windows build; run loam");
        return ExitCode::from(2);
    }
    let exe = match std::env::current_exe() {
        Ok(p) => p.with_file_name("loam.exe"),
        Err(e) => {
            eprintln!("loam.com: cannot tell where it is ({e})");
            return ExitCode::from(2);
        }
    };
    match Command::new(&exe)
        .args(std::env::args_os().skip(1))
        .status()
    {
        // Exit codes of loam are 0, 1 and 2; any other is passed on as far as a byte allows.
        Ok(status) => ExitCode::from(status.code().map_or(1, |c| c.clamp(0, 255) as u8)),
        Err(e) => {
            eprintln!("loam.com: cannot start {} ({e})", exe.display());
            ExitCode::from(2)
        }
    }
}
