//! `league bench replay`: how fast the read side rebuilds standings from a long log, next
//! to a raw scan of the same table in the same run.
//!
//! 1. Generates a realistic log through the domain (players; placement leagues of 8 with
//!    k = 2..6 and the default games per seat; every game reported, about 1 in 20
//!    corrected) and appends it in big batches (one append per league stream) to a
//!    scratch database beside `--database` (removed afterwards); or, with `--log`, measures
//!    an existing log as it is (read only).
//! 2. Measures, each as the best of a few runs:
//!    - raw scan ([`raw_scan`], also the baseline of `league bench scale`): the query the
//!      rebuild runs, every row fetched and every column it reads taken as the driver's
//!      bytes, text or integers — nothing parsed (no JSON, no timestamp);
//!    - replay from the database: [`load_model`], the fold `league replay` runs (and `league
//!      bench scale` times as its rebuild): each payload decoded from its JSON text and
//!      folded (`replay_db_events_per_s`); then, apart, every league's standings ranked
//!      (`rank_all_leagues_s`), which a replay does lazily, per league, when asked;
//!    - replay from memory: the log held in memory as typed domain events, folded, then
//!      every league's standings ranked (`replay_events_per_s`, goal ≥ 1M/s); and the same
//!      from the store's `RecordedEvent`s, whose JSON values are decoded on the way
//!      (`replay_recorded_events_per_s`).
//!
//!    Freeing the model after a run is not timed.
//! 3. `replay_ratio` = database replay rate / raw scan rate (goal ≥ 0.5).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use chrono::Utc;
use futures::TryStreamExt;
use league_domain::{
    Actor, Aggregate, Context, CorrectResult, CreateLeague, DomainEvent, League, LeagueCommand,
    LeagueSettings, Player, PlayerCommand, RegisterPlayer, ReportResult, Subscribe,
};
use league_projections::{EventMeta, ReadModel, decode_event, load_model};
use league_scoring::{GameResult, PlacementEntry, ScoringSystem};
use league_store::sea_orm::DbBackend;
use league_store::sea_orm::sqlx::{self, Row};
use league_store::{EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use uuid::Uuid;

use super::scratch::in_scratch;
use crate::CliError;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to put the scratch database: beside this SQLite file, or on this PostgreSQL
    /// server. Nothing in it is touched.
    #[arg(long = "database", env = "DATABASE_URL", default_value = "sqlite://league.db?mode=rwc")]
    pub database: String,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Events to generate (at least 1000).
    #[arg(long, default_value_t = 1_000_000)]
    pub events: u64,
    /// Measure this existing log (SQLite or PostgreSQL URL) as it is, read only, instead of
    /// generating one.
    #[arg(long, value_name = "URL")]
    pub log: Option<String>,
}

/// Measurements per figure; the best one counts (the machine is shared).
const RUNS: usize = 3;
/// Registered players the leagues draw from.
const PLAYERS: u128 = 512;

/// Figures of one run.
#[derive(Debug, serde::Serialize)]
struct Figures {
    database: String,
    events: u64,
    leagues: u64,
    generate_s: f64,
    append_s: f64,
    raw_scan_events_per_s: f64,
    replay_db_events_per_s: f64,
    replay_ratio: f64,
    /// The database replay plus ranking every league's standings.
    replay_db_then_ranked_events_per_s: f64,
    replay_events_per_s: f64,
    replay_recorded_events_per_s: f64,
    rank_all_leagues_s: f64,
}

/// SplitMix64: a small deterministic generator, so every run replays the same log (and the
/// ratings bench folds the same results, and the scale bench serves the same leagues).
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One stream's events, ready to append.
pub(super) struct StreamEvents {
    pub(super) stream: String,
    events: Vec<DomainEvent>,
}

fn player_id(n: u128) -> Uuid {
    Uuid::from_u128(0x0193_7000_0000_7000_8000_0000_0000_0000 + n)
}

/// Generates at least `target` events through the domain's aggregates.
pub(super) fn generate(target: u64) -> Result<(Vec<StreamEvents>, u64), CliError> {
    let mut generator = Generator::new(target);
    let streams = generator.by_ref().collect::<Result<Vec<_>, _>>()?;
    Ok((streams, generator.leagues))
}

fn domain(error: league_domain::DomainError) -> CliError {
    CliError::Failed(anyhow::anyhow!("the generator made a command the domain refused: {error}"))
}

pub(super) async fn append_all(
    store: &EventStore,
    streams: Vec<StreamEvents>,
) -> Result<(), CliError> {
    let streams = futures::stream::iter(streams.into_iter().map(Ok));
    append_streams(store, streams, WRITERS, |_, _| {}).await?;
    Ok(())
}

/// The baseline of the rebuild benches: the rebuild's own query, every row fetched and
/// every column it reads taken as the driver hands it over — integers, the event type and
/// payload as text, the commit time as its stored text (SQLite) or bytes (PostgreSQL) —
/// and touched; nothing parsed.
pub(super) async fn raw_scan(store: &EventStore) -> Result<u64, CliError> {
    const SQLITE: &str = "SELECT position, stream_version, event_type, schema_version, payload, \
                          recorded_at FROM events WHERE position <= ?1 ORDER BY position";
    const POSTGRES: &str = "SELECT position, stream_version, event_type, schema_version, \
                            payload, recorded_at FROM events WHERE position <= $1 ORDER BY position";
    let mut touched = 0u64;
    macro_rules! scan {
        ($pool:expr, $sql:expr, |$row:ident| $time:expr) => {{
            let mut rows = sqlx::query($sql).bind(i64::MAX).fetch($pool);
            while let Some($row) = rows.try_next().await.context("scan")? {
                let position: i64 = $row.try_get(0).context("scan")?;
                let version: i64 = $row.try_get(1).context("scan")?;
                let event_type: &str = $row.try_get(2).context("scan")?;
                let schema: i32 = $row.try_get(3).context("scan")?;
                let payload: &str = $row.try_get(4).context("scan")?;
                let at: &[u8] = $time;
                touched = touched.wrapping_add(
                    (position + version + i64::from(schema)) as u64
                        + (event_type.len() + payload.len()) as u64
                        + at.last().copied().map_or(0, u64::from),
                );
            }
        }};
    }
    let db = store.connection();
    match store.backend() {
        DbBackend::Sqlite => scan!(db.get_sqlite_connection_pool(), SQLITE, |row| row
            .try_get_unchecked::<&str, _>(5)
            .context("scan")?
            .as_bytes()),
        _ => scan!(db.get_postgres_connection_pool(), POSTGRES, |row| row
            .try_get_raw(5)
            .context("scan")?
            .as_bytes()
            .map_err(|error| anyhow::anyhow!("scan: {error}"))?),
    }
    Ok(touched)
}

/// Ranks every league's standings (the lazy part of a replay), returning a checksum.
fn rank_all(model: &ReadModel) -> usize {
    model.leagues().map(|league| model.standings(league.id).len()).sum()
}

/// The best of [`RUNS`] timings; each run returns the time of its own measured part (so
/// freeing the model afterwards is not counted).
async fn best<F, Fut>(mut run: F) -> Result<Duration, CliError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Duration, CliError>>,
{
    let mut best = Duration::MAX;
    for _ in 0..RUNS {
        best = best.min(run().await?);
    }
    Ok(best)
}

/// Generates and appends the log into the scratch database at `url`, then measures it.
async fn generate_and_measure(url: &str, args: &Args) -> Result<Figures, CliError> {
    let started = Instant::now();
    let (streams, leagues) = generate(args.events)?;
    let generate_s = started.elapsed().as_secs_f64();
    let store = EventStore::connect(url).await.context("scratch database")?;
    store.migrate().await.context("migrate the scratch database")?;
    let started = Instant::now();
    append_all(&store, streams).await?;
    let append_s = started.elapsed().as_secs_f64();
    let mut figures = measure(&store).await?;
    figures.leagues = leagues;
    figures.generate_s = generate_s;
    figures.append_s = append_s;
    Ok(figures)
}

/// Measures the log of `store` (read only).
async fn measure(store: &EventStore) -> Result<Figures, CliError> {
    let events = store.head_position().await.context("head")?;
    let per_s = |time: Duration| events as f64 / time.as_secs_f64().max(1e-9);

    let scan = best(|| async {
        let started = Instant::now();
        std::hint::black_box(raw_scan(store).await?);
        Ok(started.elapsed())
    })
    .await?;
    let mut leagues = 0u64;
    let (mut db_replay, mut db_rank) = (Duration::MAX, Duration::MAX);
    for _ in 0..RUNS {
        let started = Instant::now();
        let model = load_model(store, None, |_| {}).await.context("replay")?;
        db_replay = db_replay.min(started.elapsed());
        let ranking = Instant::now();
        std::hint::black_box(rank_all(&model));
        db_rank = db_rank.min(ranking.elapsed());
        leagues = model.leagues().count() as u64;
        drop(model);
    }

    let recorded = store.read_all(1, u64::MAX).await.context("load the log")?;
    let recorded_time = best(|| async {
        let started = Instant::now();
        let mut model = ReadModel::new();
        for event in &recorded {
            model.apply(event).context("fold")?;
        }
        std::hint::black_box(rank_all(&model));
        let elapsed = started.elapsed();
        drop(model);
        Ok(elapsed)
    })
    .await?;
    let mut typed_time = Duration::MAX;
    let mut rank_time = Duration::MAX;
    for _ in 0..RUNS {
        let typed = recorded
            .iter()
            .map(|e| {
                let event = decode_event(&e.event_type, e.schema_version.into(), &e.payload)
                    .context("decode")?;
                let meta = EventMeta {
                    position: e.position,
                    stream_version: e.stream_version,
                    recorded_at: e.recorded_at,
                };
                Ok((meta, event))
            })
            .collect::<Result<Vec<_>, CliError>>()?;
        let started = Instant::now();
        let mut model = ReadModel::new();
        for (meta, event) in typed {
            model.apply_event(meta, event).context("fold")?;
        }
        let folded = started.elapsed();
        std::hint::black_box(rank_all(&model));
        let elapsed = started.elapsed();
        drop(model);
        typed_time = typed_time.min(elapsed);
        rank_time = rank_time.min(elapsed - folded);
    }
    Ok(Figures {
        database: format!("{:?}", store.backend()),
        events,
        leagues,
        generate_s: 0.0,
        append_s: 0.0,
        raw_scan_events_per_s: per_s(scan),
        replay_db_events_per_s: per_s(db_replay),
        replay_ratio: per_s(db_replay) / per_s(scan),
        replay_db_then_ranked_events_per_s: per_s(db_replay + db_rank),
        replay_events_per_s: per_s(typed_time),
        replay_recorded_events_per_s: per_s(recorded_time),
        rank_all_leagues_s: rank_time.as_secs_f64(),
    })
}

pub async fn run(args: Args) -> Result<ExitCode, CliError> {
    if args.events < 1000 {
        return Err(CliError::BadInput(format!(
            "--events must be at least 1000, got {}",
            args.events
        )));
    }
    let args = &args;
    let figures = match &args.log {
        Some(url) => {
            let store = EventStore::connect(url).await.context("--log")?;
            measure(&store).await?
        }
        None => {
            in_scratch(&args.database, "replay", false, |url| async move {
                generate_and_measure(&url, args).await
            })
            .await?
        }
    };
    if args.json {
        println!("{}", serde_json::to_string(&figures).context("JSON output")?);
    } else {
        println!(
            "replay bench on {} ({} events, {} leagues)",
            figures.database, figures.events, figures.leagues
        );
        println!("  generate through the domain   {:>10.2} s", figures.generate_s);
        println!("  append (one append per stream){:>10.2} s", figures.append_s);
        println!(
            "  raw SELECT scan               {:>12.0} events/s",
            figures.raw_scan_events_per_s
        );
        println!(
            "  replay from the database      {:>12.0} events/s (fold, as `league replay`)",
            figures.replay_db_events_per_s
        );
        println!("  replay_ratio (db / scan)      {:>12.2}   (goal >= 0.5)", figures.replay_ratio);
        println!(
            "    then every league ranked    {:>12.0} events/s",
            figures.replay_db_then_ranked_events_per_s
        );
        println!(
            "  replay from memory            {:>12.0} events/s (goal >= 1,000,000)",
            figures.replay_events_per_s
        );
        println!("    of which ranking every league {:>8.3} s", figures.rank_all_leagues_s);
        println!(
            "  replay of RecordedEvents      {:>12.0} events/s (JSON values decoded too)",
            figures.replay_recorded_events_per_s
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The log [`generate`] makes, one stream at a time: every player's registration first,
/// then one league after another until at least `target` events, so a long log never has
/// to be held in memory at once.
pub(super) struct Generator {
    target: u64,
    now: chrono::DateTime<Utc>,
    rng: Rng,
    players: u128,
    total: u64,
    /// Leagues generated so far.
    pub(super) leagues: u64,
}

impl Generator {
    pub(super) fn new(target: u64) -> Generator {
        Generator { target, now: Utc::now(), rng: Rng(0x5EED), players: 0, total: 0, leagues: 0 }
    }

    fn player(&mut self, n: u128) -> Result<StreamEvents, CliError> {
        let command = PlayerCommand::Register(RegisterPlayer {
            actor: Actor::Admin,
            player_id: player_id(n),
            name: format!("Player {n}"),
            token_hash: format!("{:064x}", n),
        });
        let events = Player::default().handle(&command, &Context::new(self.now)).map_err(domain)?;
        Ok(StreamEvents { stream: command.stream_id(), events })
    }

    /// One placement league of 8 with k = 2..6 in turn, every game reported and about 1 in
    /// 20 corrected.
    fn league(&mut self) -> Result<StreamEvents, CliError> {
        let (now, rng, leagues) = (self.now, &mut self.rng, self.leagues);
        let league_id = Uuid::from_u64_pair(rng.next(), rng.next());
        let k = 2 + (leagues % 5) as u32;
        let mut league = League::default();
        let mut events = Vec::new();
        let mut run = |league: &mut League, command: LeagueCommand, context: &Context| {
            let decided = league.handle(&command, context).map_err(domain)?;
            for event in &decided {
                league.apply(event);
            }
            events.extend(decided);
            Ok::<_, CliError>(())
        };
        let settings = LeagueSettings::new(
            format!("League {leagues}"),
            "Cartagena",
            ScoringSystem::Placement,
            k,
        );
        let create = CreateLeague { actor: Actor::Admin, league_id, settings };
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
            let subscribe = Subscribe { actor: Actor::Admin, league_id, player_id: *player };
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
            let report =
                ReportResult { actor: Actor::Admin, league_id, game_id, result: result(rng) };
            run(&mut league, report.into(), &Context::new(now))?;
            if rng.below(20) == 0 {
                let correct = CorrectResult {
                    actor: Actor::Admin,
                    league_id,
                    game_id,
                    result: result(rng),
                    reason: "score sheet re-checked".into(),
                };
                run(&mut league, correct.into(), &Context::new(now))?;
            }
        }
        self.leagues += 1;
        Ok(StreamEvents { stream: league_domain::league_stream_id(league_id), events })
    }
}

impl Iterator for Generator {
    type Item = Result<StreamEvents, CliError>;

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
pub(super) const WRITERS: usize = 64;

/// Appends every stream of `streams` (each in one append, expecting a new stream), up to
/// `writers` at once, calling `appended` with each stream id and its number of events once
/// it is committed; returns the events appended. A league's events name its players, so
/// every stream before the first league stream (the registrations) is committed before any
/// league stream is appended; league streams are independent, so their order in the log is
/// whichever the store assigns.
pub(super) async fn append_streams<S>(
    store: &EventStore,
    mut streams: S,
    writers: usize,
    mut appended: impl FnMut(&str, u64),
) -> Result<u64, CliError>
where
    S: futures::Stream<Item = Result<StreamEvents, CliError>> + Unpin,
{
    use futures::StreamExt as _;

    async fn append_one(
        store: EventStore,
        stream: StreamEvents,
    ) -> Result<(String, u64), CliError> {
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

    let mut done = |joined: Result<Result<(String, u64), CliError>, tokio::task::JoinError>| {
        let (stream, count) = joined.context("append task")??;
        appended(&stream, count);
        Ok::<_, CliError>(())
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
