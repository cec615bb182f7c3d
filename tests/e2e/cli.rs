//! End-to-end tests of the `league` binary (run through the cli package so that
//! `CARGO_BIN_EXE_league` names the real binary).

use std::process::Command;

#[test]
fn help_lists_every_subcommand() {
    let output = Command::new(env!("CARGO_BIN_EXE_league")).arg("--help").output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    for sub in [
        "serve",
        "migrate",
        "verify",
        "score",
        "standings",
        "schedule",
        "replay",
        "audit",
        "rescore",
    ] {
        assert!(help.contains(sub), "`league --help` lacks {sub}:\n{help}");
    }
    // Benchmarks are `league-bench`'s, not a user's command.
    assert!(!help.contains("bench"), "`league --help` lists benchmarks:\n{help}");
}

/// `league schedule` (a long JSON document) and `league migrate` whose stdout reader has
/// gone away end quietly with exit 0 instead of panicking on the closed pipe.
#[test]
fn schedule_and_migrate_into_a_closed_pipe_end_quietly() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("pipe.db").display());
    for args in [
        vec!["schedule", "--players", "64", "--per-game", "7"],
        vec!["migrate", "--database", url.as_str()],
        vec!["verify", "--database", url.as_str()],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_league"))
            .args(&args)
            .env("RUST_LOG", "error")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{args:?}: exit {:?}, stderr: {stderr}", output.status);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
