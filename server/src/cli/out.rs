//! Standard output and error for the subcommands. A reader that stops early (`| head`)
//! ends the output quietly, where `println!` would panic with a backtrace; a disk that is
//! full is said once, and makes the command fail.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The reader of standard output has gone: what is left to print is no longer wanted.
static READER_GONE: AtomicBool = AtomicBool::new(false);
/// Writing to standard output failed otherwise (a full disk): the output is incomplete.
static WRITE_FAILED: AtomicBool = AtomicBool::new(false);

/// Writes `text` to standard output. Once the reader has gone, nothing more is written and
/// the command goes on to end with its own exit code, as it would have. Any other failure
/// to write is said on standard error, once, and [`failed`] says so.
pub fn write(text: fmt::Arguments<'_>) {
    if READER_GONE.load(Ordering::Relaxed) || WRITE_FAILED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = io::stdout().lock();
    match stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => READER_GONE.store(true, Ordering::Relaxed),
        Err(error) => {
            WRITE_FAILED.store(true, Ordering::Relaxed);
            write_error(format_args!("issuewright: cannot write to standard output: {error}\n"));
        }
    }
}

/// Whether standard output lost text for another reason than its reader leaving: the
/// command must then fail, whatever it did.
pub fn failed() -> bool {
    WRITE_FAILED.load(Ordering::Relaxed)
}

/// Writes `text` to standard error; when that cannot be written either, there is no one
/// left to tell.
pub fn write_error(text: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(text);
}

/// `print!` through [`write`].
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::out::write(format_args!($($arg)*)) };
}

/// `println!` through [`write`].
macro_rules! outln {
    () => { $crate::cli::out::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::out::write(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `eprintln!` through [`write_error`].
macro_rules! errln {
    ($($arg:tt)*) => { $crate::cli::out::write_error(format_args!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {errln, out, outln};
