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
        "bench",
    ] {
        assert!(help.contains(sub), "`league --help` lacks {sub}:\n{help}");
    }
}
