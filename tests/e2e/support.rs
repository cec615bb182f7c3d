//! The testkit's gateway harness and client as the end-to-end tests use them, plus the
//! `league serve` process of this build (only a test of the cli package knows the binary).

pub use league_testkit::app::*;
pub use league_testkit::client::*;

/// The `league` binary of this build.
const LEAGUE_BINARY: &str = env!("CARGO_BIN_EXE_league");

/// The real `league serve` binary with the [`ADMIN`] token.
pub async fn start_league_serve(database_url: &str) -> TestApp {
    start_binary(LEAGUE_BINARY, database_url, &[("LEAGUE_ADMIN_TOKEN", ADMIN)]).await
}

/// The real `league serve` binary with exactly the given `LEAGUE_*` settings (no admin
/// token unless `env` names one).
pub async fn start_league_serve_with(database_url: &str, env: &[(&str, &str)]) -> TestApp {
    start_binary(LEAGUE_BINARY, database_url, env).await
}

/// The real `league serve` binary with the [`ADMIN`] token, writing to `database_url` and
/// reading the log from `read_database_url` (`--read-database`), with more settings in `env`.
pub async fn start_reading_league_serve(
    database_url: &str,
    read_database_url: &str,
    env: &[(&str, &str)],
) -> TestApp {
    let mut settings = vec![("LEAGUE_ADMIN_TOKEN", ADMIN)];
    settings.extend_from_slice(env);
    start_binary_with_args(
        LEAGUE_BINARY,
        database_url,
        &["--read-database", read_database_url],
        &settings,
    )
    .await
}

/// The real `league serve` binary with exactly the given settings, its log (stderr) kept in
/// the answered [`ServerLog`] (`env` may set `RUST_LOG` and `LEAGUE_LOG_FORMAT`).
pub async fn start_league_serve_logged(
    database_url: &str,
    env: &[(&str, &str)],
) -> (TestApp, ServerLog) {
    start_binary_logged(LEAGUE_BINARY, database_url, env).await
}
