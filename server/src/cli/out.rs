//! Standard output for the subcommands: a reader that stops early (`| head`) ends the
//! command quietly, where `println!` would panic with a backtrace.

use std::fmt;
use std::io::{self, Write};

/// Writes `text` to standard output. When the reader has gone away the output is no longer
/// wanted, so the process ends with success, as `cat` or `grep` would. Every subcommand
/// prints only after its work is done (a run's files are written before its report), so
/// nothing is left half done. Any other failure to write is reported on standard error.
pub fn write(text: fmt::Arguments<'_>) {
    let mut stdout = io::stdout().lock();
    match stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(error) => eprintln!("issuewright: cannot write to standard output: {error}"),
    }
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

pub(crate) use {out, outln};
