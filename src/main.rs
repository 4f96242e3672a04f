//! The `retrograde` command: parse, validate, dispatch, map errors to exit
//! codes. Everything else lives in the library and in `cli`.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
