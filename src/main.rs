//! The `loam` binary: parses the command line and hands over to the library.

use clap::Parser;

fn main() -> std::process::ExitCode {
    loam::cli::run(loam::cli::Cli::parse())
}
