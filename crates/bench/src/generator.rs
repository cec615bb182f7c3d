//! The benchmarks' one log generator: a realistic league log made through the domain's
//! aggregates and written to a store, the same in every run (a deterministic generator).
//!
//! Every player's registration comes first (512 players), then one placement league of 8
//! after another, k = 2..6 players per game in turn and the default games per seat, every
//! game reported with random points and about 1 in 20 corrected, until at least the target
//! number of events. `replay` and `scale` append it to a scratch database; `ratings` folds
//! its result events in memory.

use std::time::{Duration, Instant};

use anyhow::Context as _;
use chrono::Utc;
use league_domain::{
    Actor, Aggregate, Context, CorrectResult, CreateLeague, DomainEvent, League, LeagueCommand,
    LeagueSettings, Player, PlayerCommand, RegisterPlayer, ReportResult, Subscribe,
};
use league_scoring::{GameResult, PlacementEntry, ScoringSystem};
use league_store::{EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use uuid::Uuid;

use crate::BenchError;

/// Registered players the leagues draw from.
pub const PLAYERS: u128 = 512;

/// `--events`: how long a log to generate.
#[derive(Debug, clap::Args)]
pub struct LogSize {
    /// Events to generate (at least 1000).
    #[arg(long, default_value_t = 1_000_000)]
    pub events: u64,
}

impl LogSize {
    /// Fewer than 1,000 events measure nothing worth printing.
    pub fn check(&self) -> Result<(), BenchError> {
        if self.events < 1000 {
            return Err(BenchError::BadInput(format!(
                "--events must be at least 1000, got {}",
                self.events
            )));
        }
        Ok(())
    }
}

/// SplitMix64: a small deterministic generator, so every run replays the same log (and the
/// ratings bench folds the same results, and the scale bench serves the same leagues).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One stream's events, ready to append.
pub struct StreamEvents {
    pub stream: String,
    pub events: Vec<DomainEvent>,
}

pub fn player_id(n: u128) -> Uuid {
    Uuid::from_u128(0x0193_7000_0000_7000_8000_0000_0000_0000 + n)
}

/// Generates at least `target` events through the domain's aggregates.
pub fn generate(target: u64) -> Result<(Vec<StreamEvents>, u64), BenchError> {
    let mut generator = Generator::new(target);
    let streams = generator.by_ref().collect::<Result<Vec<_>, _>>()?;
    Ok((streams, generator.leagues))
}

fn domain(error: league_domain::DomainError) -> BenchError {
    BenchError::Failed(anyhow::anyhow!("the generator made a command the domain refused: {error}"))
}

pub async fn append_all(store: &EventStore, streams: Vec<StreamEvents>) -> Result<(), BenchError> {
    let streams = futures::stream::iter(streams.into_iter().map(Ok));
    append_streams(store, streams, WRITERS, |_, _| {}).await?;
    Ok(())
}

/// The log [`generate`] makes, one stream at a time: every player's registration first,
/// then one league after another until at least `target` events, so a long log never has
/// to be held in memory at once.
pub struct Generator {
    target: u64,
    now: chrono::DateTime<Utc>,
    rng: Rng,
    players: u128,
    total: u64,
    /// Leagues generated so far.
    pub leagues: u64,
}

impl Generator {
    pub fn new(target: u64) -> Generator {
        Generator { target, now: Utc::now(), rng: Rng(0x5EED), players: 0, total: 0, leagues: 0 }
    }

    fn player(&mut self, n: u128) -> Result<StreamEvents, BenchError> {
        let command = PlayerCommand::Register(RegisterPlayer {
            actor: Actor::Admin,
            player_id: player_id(n).into(),
            name: format!("Player {n}"),
            token_hash: format!("{:064x}", n),
        });
        let events = Player::default().decide(&command, &Context::new(self.now)).map_err(domain)?;
        Ok(StreamEvents { stream: command.stream_id(), events })
    }

    /// One placement league of 8 with k = 2..6 in turn, every game reported and about 1 in
    /// 20 corrected.
    fn league(&mut self) -> Result<StreamEvents, BenchError> {
        let (now, rng, leagues) = (self.now, &mut self.rng, self.leagues);
        let league_id = Uuid::from_u64_pair(rng.next(), rng.next());
        let k = 2 + (leagues % 5) as u32;
        let mut league = League::default();
        let mut events = Vec::new();
        let mut run = |league: &mut League, command: LeagueCommand, context: &Context| {
            let decided = league.decide(&command, context).map_err(domain)?;
            for event in &decided {
                league.apply_event(event);
            }
            events.extend(decided);
            Ok::<_, BenchError>(())
        };
        let settings = LeagueSettings::new(
            format!("League {leagues}"),
            "Cartagena",
            ScoringSystem::Placement,
            k,
        );
        let create = CreateLeague { actor: Actor::Admin, league_id: league_id.into(), settings };
        run(&mut league, create.into(), &Context::new(now))?;
        let mut chosen = Vec::new();
        while chosen.len() < 8 {
            let candidate = player_id(u128::from(rng.below(PLAYERS as u64)));
            if !chosen.contains(&candidate) {
                chosen.push(candidate);
            }
        }
        let subscriber = Context::new(now).with_subscriber(0);
        for player in &chosen {
            let subscribe = Subscribe {
                actor: Actor::Admin,
                league_id: league_id.into(),
                player_id: (*player).into(),
            };
            run(&mut league, subscribe.into(), &subscriber)?;
        }
        let games: Vec<_> = league.games().iter().map(|g| (g.id, g.seats.clone())).collect();
        for (game_id, seats) in games {
            let result = |rng: &mut Rng| {
                GameResult::Placement(
                    seats
                        .iter()
                        .map(|p| PlacementEntry {
                            player: p.to_string(),
                            points: rng.below(40) as f64,
                        })
                        .collect(),
                )
            };
            let report = ReportResult {
                actor: Actor::Admin,
                league_id: league_id.into(),
                game_id,
                result: result(rng),
            };
            run(&mut league, report.into(), &Context::new(now))?;
            if rng.below(20) == 0 {
                let correct = CorrectResult {
                    actor: Actor::Admin,
                    league_id: league_id.into(),
                    game_id,
                    result: result(rng),
                    reason: "score sheet re-checked".into(),
                };
                run(&mut league, correct.into(), &Context::new(now))?;
            }
        }
        self.leagues += 1;
        Ok(StreamEvents { stream: league_domain::league_stream_id(league_id.into()), events })
    }
}

impl Iterator for Generator {
    type Item = Result<StreamEvents, BenchError>;

    fn next(&mut self) -> Option<Self::Item> {
        let next = if self.players < PLAYERS {
            self.players += 1;
            self.player(self.players - 1)
        } else if self.total < self.target {
            self.league()
        } else {
            return None;
        };
        if let Ok(stream) = &next {
            self.total += stream.events.len() as u64;
        }
        Some(next)
    }
}

/// Appends in flight at once when a bench writes a generated log. The store commits the
/// appends queued meanwhile as one group (one transaction; one round trip on PostgreSQL),
/// so a long log is written in a few thousand commits instead of one per stream; a group
/// holds up to 2,000 events, about 40 league streams.
pub const WRITERS: usize = 64;

/// Appends every stream of `streams` (each in one append, expecting a new stream), up to
/// `writers` at once, calling `appended` with each stream id and its number of events once
/// it is committed; returns the events appended. A league's events name its players, so
/// every stream before the first league stream (the registrations) is committed before any
/// league stream is appended; league streams are independent, so their order in the log is
/// whichever the store assigns.
pub async fn append_streams<S>(
    store: &EventStore,
    mut streams: S,
    writers: usize,
    mut appended: impl FnMut(&str, u64),
) -> Result<u64, BenchError>
where
    S: futures::Stream<Item = Result<StreamEvents, BenchError>> + Unpin,
{
    use futures::StreamExt as _;

    async fn append_one(
        store: EventStore,
        stream: StreamEvents,
    ) -> Result<(String, u64), BenchError> {
        let StreamEvents { stream, events } = stream;
        let count = events.len() as u64;
        let id = StreamId::new(stream.clone()).context("stream id")?;
        let events = events
            .iter()
            .map(|e| NewEvent::new(e.event_type(), e.schema_version() as i32, e.payload()))
            .collect();
        let metadata = Metadata::default().with_actor("admin");
        store.append(&id, ExpectedVersion::NoStream, events, metadata).await.context("append")?;
        Ok((stream, count))
    }

    let mut done = |joined: Result<Result<(String, u64), BenchError>, tokio::task::JoinError>| {
        let (stream, count) = joined.context("append task")??;
        appended(&stream, count);
        Ok::<_, BenchError>(())
    };
    let mut in_flight = tokio::task::JoinSet::new();
    let mut registrations = true;
    let mut events = 0u64;
    while let Some(stream) = streams.next().await {
        let stream = stream?;
        if registrations && league_domain::league_id_of_stream(&stream.stream).is_some() {
            registrations = false;
            while let Some(joined) = in_flight.join_next().await {
                done(joined)?;
            }
        }
        while in_flight.len() >= writers.max(1) {
            if let Some(joined) = in_flight.join_next().await {
                done(joined)?;
            }
        }
        events += stream.events.len() as u64;
        in_flight.spawn(append_one(store.clone(), stream));
    }
    while let Some(joined) = in_flight.join_next().await {
        done(joined)?;
    }
    Ok(events)
}

/// What writing the generated log took.
pub struct Written {
    pub events: u64,
    pub wall: Duration,
    pub generating: Duration,
}

/// Generates the log on a thread of its own and appends each stream as it comes, `writers`
/// appends in flight, printing progress on stderr about every tenth of the log.
pub async fn write_log(
    store: &EventStore,
    target: u64,
    writers: usize,
) -> Result<Written, BenchError> {
    let (sender, receiver) = tokio::sync::mpsc::channel(4 * writers.max(1));
    let started = Instant::now();
    let generator = tokio::task::spawn_blocking(move || {
        let mut generator = Generator::new(target);
        let mut generating = Duration::ZERO;
        loop {
            let started = Instant::now();
            let next = generator.next();
            generating += started.elapsed();
            // A closed channel means the appender stopped on an error: it reports it.
            let Some(next) = next else { break };
            if sender.blocking_send(next).is_err() {
                break;
            }
        }
        generating
    });
    let streams = futures::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|stream| (stream, receiver))
    });
    let mut events = 0u64;
    let step = (target / 10).max(1);
    let mut next_report = step;
    let appended = append_streams(store, Box::pin(streams), writers, |_, count| {
        events += count;
        if events >= next_report {
            next_report += step;
            let seconds = started.elapsed().as_secs_f64();
            eprintln!(
                "  written {events} of {target} events in {seconds:.1} s ({:.0} events/s)",
                events as f64 / seconds.max(1e-9)
            );
        }
    })
    .await;
    let generating = generator.await.context("generator thread")?;
    appended?;
    Ok(Written { events, wall: started.elapsed(), generating })
}
