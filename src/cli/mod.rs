//! The command-line commands, each a small function over the library.
