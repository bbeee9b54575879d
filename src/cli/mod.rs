//! The command-line commands, each a small function over the library; `main.rs` only parses
//! arguments and calls [`run`].

pub mod check;
pub mod convert;
pub mod info;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::format::Generation;

/// loam: a terrain editor and converter for classic World of Warcraft maps.
#[derive(Debug, Parser)]
#[command(name = "loam", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Describe a map (.wdt with its tiles) or a tile (.adt): generation, tiles, textures,
    /// objects, liquids, flags.
    Info {
        /// A .wdt or .adt file.
        path: PathBuf,
        /// Print JSON for scripts instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Validate maps or tiles; exits 1 and prints one line per problem when any is found.
    Check {
        /// .wdt or .adt files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Convert a map or tile to another client generation, printing what was dropped or changed.
    Convert {
        /// Target generation: 1.12 or 3.3.5.
        #[arg(long, value_parser = parse_generation)]
        to: Generation,
        /// A .wdt (the whole map folder around it is converted) or one .adt.
        src: PathBuf,
        /// Folder that receives files of the same names.
        dst: PathBuf,
    },
}

fn parse_generation(s: &str) -> Result<Generation, String> {
    s.parse()
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Some(Command::Info { path, json }) => info::run(&path, json),
        Some(Command::Check { paths }) => check::run(&paths),
        Some(Command::Convert { to, src, dst }) => convert::run(&src, &dst, to),
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
