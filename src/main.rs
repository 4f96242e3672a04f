//! The `retrograde` command: parse, validate, dispatch, map errors to exit
//! codes. Everything else lives in the library, in `cli` and in `server`
//! (the HTTP front end of `retrograde serve`).

mod cli;
mod server;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
