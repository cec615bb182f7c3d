//! The CLI's error boundary: bad input (exit 2, nothing done) versus failure (exit 1).

use std::process::ExitCode;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The user's input is wrong: a one-line message, exit status 2, nothing changed.
    #[error("{0}")]
    BadInput(String),
    /// Something failed while doing valid work (database unreachable, tampered log…).
    #[error("{0:#}")]
    Failed(#[from] anyhow::Error),
}

impl CliError {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::BadInput(_) => ExitCode::from(2),
            CliError::Failed(_) => ExitCode::FAILURE,
        }
    }
}
