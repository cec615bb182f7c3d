//! The end-to-end tests: one test binary (one link) with one module per feature. It
//! belongs to the cli package so that the tests can start the real `league` binary
//! (`CARGO_BIN_EXE_league`). The gateway harness and client are `league_testkit`'s
//! ([`support`]).

mod api;
mod backup;
mod bad_input;
mod cli;
mod compose;
mod concessions;
mod crash;
mod erasure;
mod failover;
mod feeds;
mod identity;
mod immutability;
mod passkeys;
mod players_per_game;
mod race;
mod replay;
mod scale_out;
mod schedule;
mod score;
mod score_batch;
mod secrets;
mod seed;
mod serve_binary;
mod snapshot;
mod standby;
mod support;
mod systems;
mod webhooks;
