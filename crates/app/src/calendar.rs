//! A player's calendar (`docs/feeds.md`): their league games and tournament boards as
//! iCalendar (RFC 5545) events, and the player's secret feed (the `Calendar` aggregate,
//! stream `calendar-<player>`) that lets a calendar application fetch them.
//!
//! Leagues have no schedule of hours, so each league game is an all-day event on the day it
//! became known: the day its league started (the schedule's commit time) until it is
//! played, then the day its result was first reported. A tournament board is a timed event
//! when its round has a start time (`docs/tournaments.md#times`), else an all-day event on
//! the day its round was seeded. Each event's `DTSTAMP` is the commit time its day or times
//! come from, so a feed only changes when the competition does.

use league_domain::TournamentEvent;
use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use league_domain::{
    Calendar, DomainEvent, EventType, PlayerId, calendar_stream_id, league_stream_id,
};
use league_projections::decode;
use league_store::StreamId;
use uuid::Uuid;

use crate::aggregates::StreamState;
use crate::app::App;
use crate::error::AppError;

/// Stream events read per page while looking for a league's schedule.
const SCHEDULE_SEARCH_PAGE: u64 = 200;

/// How long a timed board lasts when its round has no end time.
const UNTIMED_END_HOURS: i64 = 3;

/// Round → commit time, of the seedings and of the latest round times.
type RoundCommits = (HashMap<u32, DateTime<Utc>>, HashMap<u32, DateTime<Utc>>);

/// How often a calendar application should fetch the feed again.
const REFRESH_HOURS: i64 = 1;

/// One game or board of a player's calendar.
#[derive(Debug, Clone, PartialEq)]
pub struct CalendarEntry {
    /// Stable across fetches: `game-<uuid>@league` or `board-<uuid>@league`.
    pub uid: String,
    /// The day the event is on (an all-day event unless it has `times`).
    pub day: NaiveDate,
    /// Its start and end, for a board of a round with a start time.
    pub times: Option<(DateTime<Utc>, DateTime<Utc>)>,
    /// When the information last changed (the commit time the day comes from).
    pub stamp: DateTime<Utc>,
    /// The competition, the game and the opponents.
    pub summary: String,
    /// Seats, and the result once reported.
    pub description: String,
    /// The web app's page of the game or board (a path: the gateway adds its origin).
    pub path: String,
}

impl App {
    /// A player's calendar feed as last committed (no secret issued yet: `feed_hash()` is
    /// `None`). An erased player has none: their address stops with the erasure
    /// (`docs/personal-data.md#erasure`).
    pub async fn calendar_feed(&self, player: PlayerId) -> Result<Arc<Calendar>, AppError> {
        if self.catalog().player(player.into()).is_some_and(|view| view.erased) {
            return Ok(Arc::default());
        }
        let stream = StreamId::new(calendar_stream_id(player)).map_err(AppError::internal)?;
        match self.stream_state(&stream, || StreamState::Calendar(Arc::default())).await? {
            StreamState::Calendar(calendar) => Ok(calendar),
            _ => Err(AppError::internal(format!("stream {stream} holds another aggregate"))),
        }
    }

    /// Every game and board of the player's leagues and tournaments, by day.
    pub async fn calendar_entries(&self, player: PlayerId) -> Result<Vec<CalendarEntry>, AppError> {
        let names = self.player_names();
        let mut entries = self.league_entries(player, &names).await?;
        entries.extend(self.tournament_entries(player, &names).await?);
        entries.sort_by(|a, b| (a.day, a.times, &a.uid).cmp(&(b.day, b.times, &b.uid)));
        Ok(entries)
    }

    /// Every player's name, from the catalog.
    fn player_names(&self) -> HashMap<Uuid, String> {
        let catalog = self.catalog();
        catalog
            .player_ids()
            .iter()
            .filter_map(|id| catalog.player(*id).map(|p| (*id, p.name.clone())))
            .collect()
    }

    async fn league_entries(
        &self,
        player: PlayerId,
        names: &HashMap<Uuid, String>,
    ) -> Result<Vec<CalendarEntry>, AppError> {
        let mut entries = Vec::new();
        let leagues = self.catalog().leagues_of(player.into());
        for league in leagues {
            let Some(model) = self.league(league).await? else { continue };
            let Some(view) = model.league(league) else { continue };
            let mine: Vec<_> = model
                .games_of(league)
                .filter(|g| g.seats.iter().any(|s| s.player == player.uuid()))
                .collect();
            if mine.is_empty() {
                continue;
            }
            let started = self.league_started_at(league).await?.unwrap_or(view.created_at);
            for game in mine {
                let stamp = game.finished_at.unwrap_or(started);
                let seats: Vec<(String, Uuid)> =
                    game.seats.iter().map(|s| (s.label.to_string(), s.player)).collect();
                let score = game.scores.iter().find(|(p, _)| *p == player.uuid()).map(|(_, s)| *s);
                entries.push(CalendarEntry {
                    uid: format!("game-{}@league", game.id),
                    day: stamp.date_naive(),
                    times: None,
                    stamp,
                    summary: summary(
                        &view.settings.name,
                        &format!("game {}", game.number),
                        player,
                        &seats,
                        names,
                    ),
                    description: description(&seats, names, game.finished_at.map(|_| score)),
                    path: format!("/games/{}", game.id),
                });
            }
        }
        Ok(entries)
    }

    async fn tournament_entries(
        &self,
        player: PlayerId,
        names: &HashMap<Uuid, String>,
    ) -> Result<Vec<CalendarEntry>, AppError> {
        let entered: Vec<Uuid> = self
            .catalog()
            .tournaments_entered(player.uuid())
            .filter(|t| t.rounds_seeded > 0)
            .map(|t| t.id)
            .collect();
        let mut entries = Vec::new();
        for id in entered {
            let Some(tournament) = self.tournament(id).await? else { continue };
            let Some(settings) = tournament.settings() else { continue };
            let (seeded_at, timed_at) = self.rounds_seeded_and_timed_at(id).await?;
            let labels = tournament.seat_labels();
            for board in tournament.boards().filter(|b| b.is_seated(player)) {
                let Some(seeded) = seeded_at.get(&board.round).copied() else { continue };
                let stamp = timed_at.get(&board.round).map_or(seeded, |timed| seeded.max(*timed));
                let times = tournament.round_times(board.round).map(|times| {
                    let ends_at = times
                        .ends_at
                        .unwrap_or(times.starts_at + chrono::Duration::hours(UNTIMED_END_HOURS));
                    (times.starts_at, ends_at)
                });
                let seats: Vec<(String, Uuid)> = board
                    .seats
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (labels.get(i).cloned().unwrap_or_default(), p.uuid()))
                    .collect();
                let scored = board.scored(settings.scoring_system)?;
                let score = scored.map(|s| s.of(player).map(|row| row.score));
                entries.push(CalendarEntry {
                    uid: format!("board-{}@league", board.id),
                    day: times.map_or(stamp, |(starts_at, _)| starts_at).date_naive(),
                    times,
                    stamp,
                    summary: summary(
                        &settings.name,
                        &format!("round {}, board {}", board.round, board.number),
                        player,
                        &seats,
                        names,
                    ),
                    description: description(&seats, names, score),
                    path: format!("/tournaments/{id}/boards/{}", board.id),
                });
            }
        }
        Ok(entries)
    }

    /// When the league's schedule was committed (its start), read from the head of its
    /// stream: the schedule comes with the subscription that filled the league, so only its
    /// subscriptions come before it.
    async fn league_started_at(&self, league: Uuid) -> Result<Option<DateTime<Utc>>, AppError> {
        let stream = StreamId::new(league_stream_id(league.into())).map_err(AppError::internal)?;
        let mut after = 0;
        loop {
            let page = self.reads().read_stream_after(&stream, after, SCHEDULE_SEARCH_PAGE).await?;
            let Some(last) = page.last() else { return Ok(None) };
            after = last.position;
            if let Some(scheduled) =
                page.iter().find(|e| e.event_type == EventType::GamesScheduled.as_str())
            {
                return Ok(Some(scheduled.recorded_at));
            }
        }
    }

    /// Each seeded round of a tournament with the commit time of its seeding, and each
    /// round with times with the commit time they were last set.
    async fn rounds_seeded_and_timed_at(&self, id: Uuid) -> Result<RoundCommits, AppError> {
        let (mut seeded, mut timed) = (HashMap::new(), HashMap::new());
        for event in self.tournament_events(id).await? {
            let wanted = [EventType::RoundSeeded.as_str(), EventType::RoundTimesSet.as_str()];
            if !wanted.contains(&event.event_type.as_str()) {
                continue;
            }
            match decode(&event).map_err(AppError::internal)?.1 {
                DomainEvent::Tournament(TournamentEvent::RoundSeeded(e)) => {
                    seeded.insert(e.round, event.recorded_at);
                }
                DomainEvent::Tournament(TournamentEvent::RoundTimesSet(e)) => {
                    timed.insert(e.round, event.recorded_at);
                }
                _ => {}
            }
        }
        Ok((seeded, timed))
    }
}

/// `Autumn League: game 3 (France) vs Ada, Bo, Cy`.
fn summary(
    competition: &str,
    game: &str,
    player: PlayerId,
    seats: &[(String, Uuid)],
    names: &HashMap<Uuid, String>,
) -> String {
    let seat = seats.iter().find(|(_, p)| *p == player.uuid()).map(|(label, _)| label.as_str());
    let opponents: Vec<&str> = seats
        .iter()
        .filter(|(_, p)| *p != player.uuid())
        .map(|(_, p)| names.get(p).map_or("?", String::as_str))
        .collect();
    let seat = seat.map(|label| format!(" ({label})")).unwrap_or_default();
    format!("{competition}: {game}{seat} vs {}", opponents.join(", "))
}

/// Every seat, then the player's score once the result is in (`played`: `None` while not
/// played, `Some(None)` when played without a score for the player).
fn description(
    seats: &[(String, Uuid)],
    names: &HashMap<Uuid, String>,
    played: Option<Option<f64>>,
) -> String {
    let mut lines: Vec<String> = seats
        .iter()
        .map(|(label, p)| format!("{label}: {}", names.get(p).map_or("?", String::as_str)))
        .collect();
    lines.push(match played {
        None => "Not played yet.".to_owned(),
        Some(Some(score)) => format!("Played; your score: {}.", shown_score(score)),
        Some(None) => "Played.".to_owned(),
    });
    lines.join("\n")
}

/// A score as the platform shows it: to the thousandth, as league totals are kept
/// (`league_scoring::thousandths`), so a Squares share reads `1.754`, not float digits.
fn shown_score(score: f64) -> f64 {
    league_scoring::from_thousandths(league_scoring::thousandths(score))
}

/// The iCalendar text of a player's feed: one `VEVENT` per entry (timed in UTC, or all-day), each linking to
/// its page under `base_url` (`https://league.example`, no trailing slash).
pub fn calendar_ics(player_name: &str, entries: &[CalendarEntry], base_url: &str) -> String {
    let mut ics = Ics::default();
    let name = format!("League: {player_name}");
    let refresh = format!("PT{REFRESH_HOURS}H");
    ics.line("BEGIN:VCALENDAR");
    ics.line("VERSION:2.0");
    ics.line("PRODID:-//league//calendar feed//EN");
    ics.line("CALSCALE:GREGORIAN");
    ics.line("METHOD:PUBLISH");
    ics.text("NAME", &name);
    ics.text("X-WR-CALNAME", &name);
    ics.line(&format!("REFRESH-INTERVAL;VALUE=DURATION:{refresh}"));
    ics.line(&format!("X-PUBLISHED-TTL:{refresh}"));
    for entry in entries {
        let next_day = entry.day.succ_opt().unwrap_or(entry.day);
        ics.line("BEGIN:VEVENT");
        ics.text("UID", &entry.uid);
        ics.line(&format!("DTSTAMP:{}", entry.stamp.format(UTC_DATE_TIME)));
        match entry.times {
            Some((starts_at, ends_at)) => {
                ics.line(&format!("DTSTART:{}", starts_at.format(UTC_DATE_TIME)));
                ics.line(&format!("DTEND:{}", ends_at.format(UTC_DATE_TIME)));
            }
            None => {
                ics.line(&format!("DTSTART;VALUE=DATE:{}", entry.day.format("%Y%m%d")));
                ics.line(&format!("DTEND;VALUE=DATE:{}", next_day.format("%Y%m%d")));
            }
        }
        ics.text("SUMMARY", &entry.summary);
        ics.text("DESCRIPTION", &entry.description);
        ics.line(&format!("URL:{base_url}{}", entry.path));
        ics.line("STATUS:CONFIRMED");
        ics.line("END:VEVENT");
    }
    ics.line("END:VCALENDAR");
    ics.0
}

/// A DATE-TIME in UTC (RFC 5545 §3.3.5, form #2).
const UTC_DATE_TIME: &str = "%Y%m%dT%H%M%SZ";

/// iCalendar text as RFC 5545 §3.1 writes it: content lines folded at 75 octets and ended
/// by CRLF, TEXT values escaped (§3.3.11). Written here rather than by a library: the
/// `icalendar` crate left a 76-octet line and did not escape `NAME` (`docs/feeds.md`).
#[derive(Default)]
struct Ics(String);

/// Longest physical line, in octets, without its CRLF.
const LINE_OCTETS: usize = 75;

impl Ics {
    /// One content line, folded: every physical line holds at most 75 octets (a
    /// continuation line is a space and at most 74), split between UTF-8 characters only.
    fn line(&mut self, line: &str) {
        let mut rest = line;
        let mut room = LINE_OCTETS;
        while rest.len() > room {
            let mut cut = room;
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            self.0.push_str(&rest[..cut]);
            self.0.push_str("\r\n ");
            rest = &rest[cut..];
            room = LINE_OCTETS - 1;
        }
        self.0.push_str(rest);
        self.0.push_str("\r\n");
    }

    /// A property with a TEXT value.
    fn text(&mut self, name: &str, value: &str) {
        self.line(&format!("{name}:{}", escape_text(value)));
    }
}

/// A TEXT value escaped (RFC 5545 §3.3.11): backslash, semicolon and comma get a backslash,
/// a line break is `\n`; other control characters, which TEXT cannot hold, are left out.
fn escape_text(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | ';' | ',' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\n' => escaped.push_str("\\n"),
            // A CRLF is one line break.
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' => escaped.push_str("\\n"),
            '\t' => escaped.push(c),
            c if c.is_control() => {}
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use icalendar::Component;

    use super::*;

    fn entry(day: NaiveDate) -> CalendarEntry {
        CalendarEntry {
            uid: format!("game-{}@league", Uuid::from_u128(7)),
            day,
            times: None,
            stamp: day.and_hms_opt(18, 30, 0).unwrap().and_utc(),
            summary: "Autumn League, Ünïcode; with a comma: game 3 (France) vs Ada, Bo".into(),
            description: format!("France: Ada\n{}\nNot played yet.", "long line ".repeat(20)),
            path: format!("/games/{}", Uuid::from_u128(7)),
        }
    }

    /// Lines of at most 75 octets, ended by CRLF (RFC 5545 §3.1), parsed back by the
    /// `icalendar` crate's parser with every event's required properties.
    #[test]
    fn the_feed_is_valid_icalendar_and_keeps_its_text() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let text = calendar_ics("Ada", &[entry(day)], "https://league.example");
        assert!(text.ends_with("\r\n"));
        for line in text.split("\r\n") {
            assert!(line.len() <= 75, "{line:?} is longer than 75 octets");
            assert!(!line.contains('\n'), "a bare line feed in {line:?}");
        }
        let unfolded = icalendar::parser::unfold(&text);
        let parsed: icalendar::Calendar =
            icalendar::parser::read_calendar(&unfolded).unwrap().into();
        assert_eq!(parsed.property_value("VERSION"), Some("2.0"));
        assert!(parsed.property_value("PRODID").is_some());
        let event = parsed.events().next().expect("one event");
        assert_eq!(event.get_uid(), Some(entry(day).uid.as_str()));
        assert_eq!(event.get_summary(), Some(entry(day).summary.as_str()));
        assert_eq!(event.get_description(), Some(entry(day).description.as_str()));
        assert_eq!(event.get_timestamp(), Some(entry(day).stamp));
        assert_eq!(event.get_start(), Some(day.into()));
        assert_eq!(event.get_end(), Some(day.succ_opt().unwrap().into()));
        assert_eq!(
            event.get_url(),
            Some(format!("https://league.example/games/{}", Uuid::from_u128(7)).as_str())
        );
    }

    /// A board of a round with a start time is a timed event in UTC.
    #[test]
    fn a_timed_entry_starts_and_ends_at_its_times() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 28).unwrap();
        let starts_at = day.and_hms_opt(13, 0, 0).unwrap().and_utc();
        let ends_at = day.and_hms_opt(17, 0, 0).unwrap().and_utc();
        let timed = CalendarEntry { times: Some((starts_at, ends_at)), ..entry(day) };
        let text = calendar_ics("Ada", &[timed], "https://league.example");
        let lines = unfolded_lines(&text);
        assert!(lines.contains(&"DTSTART:20261128T130000Z".to_owned()), "{lines:?}");
        assert!(lines.contains(&"DTEND:20261128T170000Z".to_owned()), "{lines:?}");
        let parsed: icalendar::Calendar =
            icalendar::parser::read_calendar(&icalendar::parser::unfold(&text)).unwrap().into();
        let event = parsed.events().next().expect("one event");
        assert_eq!(event.get_start(), Some(starts_at.into()));
        assert_eq!(event.get_end(), Some(ends_at.into()));
    }

    /// The feed's content lines, unfolded (RFC 5545 §3.1), after checking every physical
    /// line: at most 75 octets, ended by CRLF, a continuation starting with one space.
    fn unfolded_lines(text: &str) -> Vec<String> {
        let physical = text.strip_suffix("\r\n").expect("the feed ends with CRLF");
        let mut lines: Vec<String> = Vec::new();
        for line in physical.split("\r\n") {
            assert!(line.len() <= 75, "{} octets: {line:?}", line.len());
            assert!(!line.contains(['\r', '\n']), "a bare line break in {line:?}");
            match line.strip_prefix(' ') {
                Some(continued) => {
                    lines.last_mut().expect("a line to continue").push_str(continued)
                }
                None => lines.push(line.to_owned()),
            }
        }
        lines
    }

    /// Every length of name, summary and description from 1 to 300 characters of one, two,
    /// three and four octets (so every split point meets every character width, and
    /// exactly 74 or 75 octets are left over for some length) folds to lines of at most
    /// 75 octets that unfold to the original.
    #[test]
    fn lines_fold_at_75_octets_and_unfold_to_the_text() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        for alphabet in ["a", "é", "€", "𝄞", "aé€𝄞", "𝄞ab"] {
            for length in 1..=300 {
                let text: String = alphabet.chars().cycle().take(length).collect();
                let entry = CalendarEntry {
                    summary: text.clone(),
                    description: format!("x{text}"),
                    ..entry(day)
                };
                let ics = calendar_ics(&text, &[entry], "https://league.example");
                let lines = unfolded_lines(&ics);
                for expected in [
                    format!("NAME:League: {text}"),
                    format!("X-WR-CALNAME:League: {text}"),
                    format!("SUMMARY:{text}"),
                    format!("DESCRIPTION:x{text}"),
                ] {
                    assert!(lines.contains(&expected), "{expected:?} not in {lines:?}");
                }
            }
        }
    }

    #[test]
    fn the_calendar_name_is_escaped_text() {
        let text = calendar_ics("Ann O'Neil, Jr.; \\o/\nB", &[], "https://league.example");
        let lines = unfolded_lines(&text);
        let escaped = r"League: Ann O'Neil\, Jr.\; \\o/\nB";
        assert!(lines.contains(&format!("NAME:{escaped}")), "{lines:?}");
        assert!(lines.contains(&format!("X-WR-CALNAME:{escaped}")), "{lines:?}");
        assert_eq!(escape_text("a\r\nb\rc\u{7}d\te"), "a\\nb\\ncd\te");
    }

    /// Scores read as the rest of the platform shows them, to the thousandth.
    #[test]
    fn scores_are_shown_to_the_thousandth() {
        let ada = Uuid::from_u128(1);
        let names = HashMap::from([(ada, "Ada".to_owned())]);
        let seats = vec![("A".to_owned(), ada)];
        let shown = |score: f64| description(&seats, &names, Some(Some(score)));
        assert_eq!(shown(1.7543859649122806), "A: Ada\nPlayed; your score: 1.754.");
        assert_eq!(shown(121.49199999999999), "A: Ada\nPlayed; your score: 121.492.");
        assert_eq!(shown(-3.5), "A: Ada\nPlayed; your score: -3.5.");
        assert_eq!(shown(33.0), "A: Ada\nPlayed; your score: 33.");
        assert_eq!(shown(-0.0001), "A: Ada\nPlayed; your score: 0.");
    }

    #[test]
    fn the_summary_names_the_seat_and_the_opponents() {
        let (ada, bo) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let names = HashMap::from([(ada, "Ada".to_owned()), (bo, "Bo".to_owned())]);
        let seats = vec![("France".to_owned(), ada), ("Italy".to_owned(), bo)];
        assert_eq!(
            summary("Cup", "round 1, board 2", ada.into(), &seats, &names),
            "Cup: round 1, board 2 (France) vs Bo"
        );
        assert_eq!(
            description(&seats, &names, Some(Some(12.5))),
            "France: Ada\nItaly: Bo\nPlayed; your score: 12.5."
        );
    }
}
