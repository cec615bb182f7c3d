//! The append decision, pure: given the log's state before a group ([`Tip`]: the head, the
//! stream versions and the used idempotency keys) and the group's appends in queue order,
//! [`decide`] answers each append — a conflict, a deduplicated answer, or the rows to write
//! with their positions, versions, commit time and chained hashes. No IO: the SQLite writer
//! reads the tip inside its transaction and the PostgreSQL planner predicts it, and both
//! write what this decides, so the two databases cannot differ in what an append means.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::hash::{ChainFields, GENESIS_HASH, format_time};
use crate::{ExpectedVersion, StreamId};

/// One append as the database sees it.
pub(crate) struct Request {
    pub(crate) stream: StreamId,
    pub(crate) expected: ExpectedVersion,
    pub(crate) idempotency_key: Option<String>,
    /// The metadata's canonical JSON text.
    pub(crate) metadata: String,
    pub(crate) events: Vec<RowInput>,
}

/// One event of an append, ready to be stamped.
pub(crate) struct RowInput {
    pub(crate) event_id: Uuid,
    pub(crate) event_type: String,
    pub(crate) schema_version: i32,
    /// The payload's canonical JSON text.
    pub(crate) payload: String,
}

/// What the log assigns to one written event.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Stamp {
    pub(crate) position: u64,
    pub(crate) stream_version: u64,
    pub(crate) recorded_at: DateTime<Utc>,
    pub(crate) prev_hash: String,
    pub(crate) hash: String,
}

/// The outcome an idempotency key's first append recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyOutcome {
    pub(crate) first_position: u64,
    pub(crate) last_position: u64,
    pub(crate) stream_version: u64,
}

/// How one append of a group ended.
#[derive(Debug, PartialEq)]
pub(crate) enum Decided {
    Written(Vec<Stamp>),
    Deduplicated(KeyOutcome),
    Conflict { actual: u64 },
}

/// The log's last event as far as the chain is concerned.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Head {
    pub(crate) position: u64,
    pub(crate) hash: String,
    /// `None` for an empty log (or a head whose time is not known).
    pub(crate) recorded_at: Option<DateTime<Utc>>,
}

impl Head {
    /// The head of an empty log.
    pub(crate) fn genesis() -> Head {
        Head { position: 0, hash: GENESIS_HASH.to_owned(), recorded_at: None }
    }
}

/// The log's state before a group, as read or predicted: the head, the version of every
/// stream the group appends to (a stream missing here has no events), and the idempotency
/// keys found used (a key missing here is unused).
#[derive(Debug, Clone)]
pub(crate) struct Tip<'a> {
    pub(crate) head: Head,
    pub(crate) versions: HashMap<&'a str, u64>,
    pub(crate) used_keys: HashMap<&'a str, KeyOutcome>,
}

/// A group decided against a [`Tip`].
#[derive(Debug)]
pub(crate) struct Plan<'a> {
    /// The commit time of every written event: never before the head's, so commit times
    /// never decrease along positions even if the clock steps back.
    pub(crate) time: DateTime<Utc>,
    /// The keys whose absence the decisions rely on.
    pub(crate) check_keys: Vec<&'a str>,
    /// Each stream's version before the group that the decisions rely on, in first-use order.
    pub(crate) checks: Vec<(&'a str, u64)>,
    /// Each stream's version after the group.
    pub(crate) versions: HashMap<&'a str, u64>,
    /// The head after the group.
    pub(crate) end: Head,
    /// One answer per append, in the group's order.
    pub(crate) decided: Vec<Decided>,
}

/// Decides every append of `requests` in order against `tip`, at commit time `now` (at
/// microsecond precision). A reused key answers with its first outcome, also when the key
/// was first used earlier in the same group; a stale expectation is a conflict that writes
/// nothing for that append only; every other append's rows follow the head, their hashes
/// chained to it.
pub(crate) fn decide<'a>(
    tip: &Tip<'_>,
    requests: &'a [Arc<Request>],
    now: DateTime<Utc>,
) -> Plan<'a> {
    let time = tip.head.recorded_at.map_or(now, |previous| previous.max(now));
    let time_text = format_time(time);
    let mut check_keys = Vec::new();
    let mut checks = Vec::new();
    let mut versions: HashMap<&str, u64> = HashMap::new();
    let mut written_keys: HashMap<&str, KeyOutcome> = HashMap::new();
    let mut position = tip.head.position;
    let mut hash = tip.head.hash.clone();
    let mut decided = Vec::with_capacity(requests.len());
    for request in requests {
        if let Some(key) = request.idempotency_key.as_deref() {
            if let Some(earlier) = tip.used_keys.get(key).or_else(|| written_keys.get(key)) {
                decided.push(Decided::Deduplicated(*earlier));
                continue;
            }
            check_keys.push(key);
        }
        let stream = request.stream.as_str();
        let version = *versions.entry(stream).or_insert_with(|| {
            let before = tip.versions.get(stream).copied().unwrap_or(0);
            checks.push((stream, before));
            before
        });
        if !request.expected.admits(version) {
            decided.push(Decided::Conflict { actual: version });
            continue;
        }
        let stamps = chain(request, position, version, time, &time_text, &mut hash);
        let count = request.events.len() as u64;
        if let Some(key) = request.idempotency_key.as_deref() {
            let outcome = KeyOutcome {
                first_position: position + 1,
                last_position: position + count,
                stream_version: version + count,
            };
            written_keys.insert(key, outcome);
        }
        position += count;
        versions.insert(stream, version + count);
        decided.push(Decided::Written(stamps));
    }
    Plan {
        time,
        check_keys,
        checks,
        versions,
        end: Head { position, hash, recorded_at: Some(time) },
        decided,
    }
}

/// The stamps of one append's rows: positions after `head_position`, stream versions after
/// `version`, one commit time, each hash chained to the one before it starting from
/// `head_hash`, which is left at the last row's hash.
fn chain(
    request: &Request,
    head_position: u64,
    version: u64,
    recorded_at: DateTime<Utc>,
    hashed_time: &str,
    head_hash: &mut String,
) -> Vec<Stamp> {
    let mut stamps = Vec::with_capacity(request.events.len());
    let mut preimage = Vec::with_capacity(1024);
    for (offset, event) in (1u64..).zip(&request.events) {
        let hash = ChainFields {
            position: head_position + offset,
            stream_id: request.stream.as_str(),
            stream_version: version + offset,
            event_id: event.event_id,
            event_type: &event.event_type,
            schema_version: event.schema_version,
            payload: &event.payload,
            metadata: &request.metadata,
            recorded_at,
            prev_hash: head_hash,
        }
        .hash_into(hashed_time, &mut preimage);
        stamps.push(Stamp {
            position: head_position + offset,
            stream_version: version + offset,
            recorded_at,
            prev_hash: std::mem::replace(head_hash, hash.clone()),
            hash,
        });
    }
    stamps
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn request(
        stream: &str,
        expected: ExpectedVersion,
        key: Option<&str>,
        events: usize,
    ) -> Arc<Request> {
        Arc::new(Request {
            stream: StreamId::new(stream).expect("stream id"),
            expected,
            idempotency_key: key.map(str::to_owned),
            metadata: "{}".to_owned(),
            events: (0..events)
                .map(|index| RowInput {
                    event_id: Uuid::from_u128(index as u128 + 1),
                    event_type: "Happened".to_owned(),
                    schema_version: 1,
                    payload: format!("{{\"n\":{index}}}"),
                })
                .collect(),
        })
    }

    fn at(second: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 24, 12, 0, second).single().expect("time")
    }

    fn tip<'a>(head: Head, versions: &[(&'a str, u64)], keys: &[(&'a str, KeyOutcome)]) -> Tip<'a> {
        Tip {
            head,
            versions: versions.iter().copied().collect(),
            used_keys: keys.iter().copied().collect(),
        }
    }

    fn written(decided: &Decided) -> &[Stamp] {
        match decided {
            Decided::Written(stamps) => stamps,
            other => panic!("expected rows, got {other:?}"),
        }
    }

    #[test]
    fn rows_follow_the_head_and_chain_their_hashes() {
        let requests = [
            request("a", ExpectedVersion::NoStream, None, 2),
            request("b", ExpectedVersion::Any, None, 1),
        ];
        let plan = decide(&tip(Head::genesis(), &[], &[]), &requests, at(1));
        let first = written(&plan.decided[0]);
        let second = written(&plan.decided[1]);
        assert_eq!(
            first.iter().map(|s| (s.position, s.stream_version)).collect::<Vec<_>>(),
            [(1, 1), (2, 2)]
        );
        assert_eq!((second[0].position, second[0].stream_version), (3, 1));
        assert_eq!(first[0].prev_hash, GENESIS_HASH);
        assert_eq!(first[1].prev_hash, first[0].hash);
        assert_eq!(second[0].prev_hash, first[1].hash);
        assert_eq!(
            plan.end,
            Head { position: 3, hash: second[0].hash.clone(), recorded_at: Some(at(1)) }
        );
        assert_eq!(plan.checks, [("a", 0), ("b", 0)]);
        assert_eq!(plan.versions[&"a"], 2);
    }

    #[test]
    fn the_hash_is_the_hash_of_the_stored_fields() {
        let requests = [request("a", ExpectedVersion::Any, None, 1)];
        let plan = decide(&tip(Head::genesis(), &[], &[]), &requests, at(1));
        let stamp = &written(&plan.decided[0])[0];
        let event = &requests[0].events[0];
        let fields = ChainFields {
            position: 1,
            stream_id: "a",
            stream_version: 1,
            event_id: event.event_id,
            event_type: &event.event_type,
            schema_version: 1,
            payload: &event.payload,
            metadata: "{}",
            recorded_at: at(1),
            prev_hash: GENESIS_HASH,
        };
        assert_eq!(stamp.hash, fields.hash());
    }

    #[test]
    fn a_stale_expectation_conflicts_and_writes_nothing_for_that_append_only() {
        let requests = [
            request("a", ExpectedVersion::Exact(3), None, 1),
            request("a", ExpectedVersion::Exact(5), None, 1),
            request("a", ExpectedVersion::Exact(6), None, 1),
        ];
        let head = Head { position: 10, hash: "h".repeat(64), recorded_at: Some(at(5)) };
        let plan = decide(&tip(head, &[("a", 5)], &[]), &requests, at(6));
        assert_eq!(plan.decided[0], Decided::Conflict { actual: 5 });
        assert_eq!(written(&plan.decided[1])[0].position, 11);
        assert_eq!(written(&plan.decided[2])[0].stream_version, 7);
        assert_eq!(plan.checks, [("a", 5)]);
        assert_eq!(plan.end.position, 12);
    }

    #[test]
    fn a_used_key_answers_its_first_outcome_also_within_the_group() {
        let earlier = KeyOutcome { first_position: 1, last_position: 2, stream_version: 2 };
        let requests = [
            request("a", ExpectedVersion::Any, Some("old"), 1),
            request("b", ExpectedVersion::Any, Some("new"), 2),
            request("c", ExpectedVersion::Any, Some("new"), 1),
        ];
        let head = Head { position: 2, hash: "h".repeat(64), recorded_at: Some(at(1)) };
        let plan = decide(&tip(head, &[], &[("old", earlier)]), &requests, at(2));
        assert_eq!(plan.decided[0], Decided::Deduplicated(earlier));
        assert_eq!(written(&plan.decided[1]).len(), 2);
        assert_eq!(
            plan.decided[2],
            Decided::Deduplicated(KeyOutcome {
                first_position: 3,
                last_position: 4,
                stream_version: 2
            })
        );
        assert_eq!(plan.check_keys, ["new"]);
        // Streams only deduplicated appends touch are not relied on.
        assert_eq!(plan.checks, [("b", 0)]);
    }

    #[test]
    fn commit_times_never_go_back() {
        let requests = [request("a", ExpectedVersion::Any, None, 1)];
        let head = Head { position: 1, hash: "h".repeat(64), recorded_at: Some(at(9)) };
        let plan = decide(&tip(head, &[], &[]), &requests, at(3));
        assert_eq!(plan.time, at(9));
        assert_eq!(written(&plan.decided[0])[0].recorded_at, at(9));
    }
}
