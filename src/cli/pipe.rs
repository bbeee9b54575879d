//! A reader that stops reading is not a crash: `loam client DIR | head` ends quietly.
//!
//! Rust ignores SIGPIPE, so when the reader of loam's output goes away its print macros panic
//! ("failed printing to stdout: Broken pipe") and the user saw a panic and a stack trace. This
//! installs, once for every command, a panic hook that ends the process in that one case with
//! the status a shell gives a program that SIGPIPE ended (141), and hands every other panic to
//! the hook that was there before.
//!
//! Not for: write errors of files (those are errors with a path, see `disk`).

/// The exit status after the reader closed the pipe: 128 + SIGPIPE, as shells report `cat`
/// and `grep` when `head` has read enough.
pub const CLOSED_PIPE_STATUS: i32 = 141;

/// Makes a print to a closed pipe end the process quietly (see the module's comment).
pub fn end_quietly_on_closed_pipe() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if is_closed_pipe(message) {
            std::process::exit(CLOSED_PIPE_STATUS);
        }
        previous(info)
    }));
}

/// Whether a panic message is std's print macros meeting a closed pipe: EPIPE (32) on Unix,
/// `ERROR_BROKEN_PIPE` (109) or `ERROR_NO_DATA` (232, "the pipe is being closed") on Windows.
fn is_closed_pipe(message: &str) -> bool {
    let Some(error) = message
        .strip_prefix("failed printing to stdout: ")
        .or_else(|| message.strip_prefix("failed printing to stderr: "))
    else {
        return false;
    };
    let codes: &[&str] = if cfg!(windows) {
        &["(os error 109)", "(os error 232)"]
    } else {
        &["(os error 32)"]
    };
    codes.iter().any(|c| error.ends_with(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_print_to_a_closed_pipe_counts() {
        let closed = std::io::Error::from_raw_os_error(if cfg!(windows) { 232 } else { 32 });
        assert!(is_closed_pipe(&format!(
            "failed printing to stdout: {closed}"
        )));
        assert!(is_closed_pipe(&format!(
            "failed printing to stderr: {closed}"
        )));
        let full = std::io::Error::from_raw_os_error(if cfg!(windows) { 112 } else { 28 });
        assert!(!is_closed_pipe(&format!(
            "failed printing to stdout: {full}"
        )));
        assert!(!is_closed_pipe(
            "index out of bounds: the len is 3 but the index is 7"
        ));
        assert!(!is_closed_pipe(&closed.to_string()));
    }
}
