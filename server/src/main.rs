//! The `issuewright` command: the language server, and the same agent run headless.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("issuewright=info"));
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(false).init();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("issuewright: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(cli::main(args));
    // A blocking read of stdin may still be pending; it must not keep the process alive.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    // Output that could not all be written (a full disk) fails the command.
    if cli::out::failed() { ExitCode::FAILURE } else { code }
}
