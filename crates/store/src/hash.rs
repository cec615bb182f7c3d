//! The hash chain: the canonical bytes of an event and their SHA-256.
//!
//! Each event's hash covers every stored field and the previous event's hash, so changing,
//! removing or re-ordering any event breaks every later link. The encoding is unambiguous:
//! a fixed domain tag, then each field as an 8-byte big-endian length followed by its bytes
//! (integers as decimal text). Payload and metadata enter as their canonical JSON text
//! ([`canonical_json`]: sorted keys, no whitespace, exact integers, shortest round-trip
//! floats), which is also exactly the text the database stores, so hashing needs no re-encoding and a
//! payload reads back to the same bytes on SQLite and PostgreSQL alike. `recorded_at` enters as
//! RFC 3339 UTC with exactly six fractional digits (the store truncates times to microseconds,
//! PostgreSQL's precision).

use chrono::{DateTime, SecondsFormat, Utc};
use std::sync::LazyLock;

use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::StoreError;

/// The `prev_hash` of the first event.
pub const GENESIS_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

const DOMAIN_TAG: &[u8] = b"league-event-v1";

/// The stored fields of one event, borrowed for hashing.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChainFields<'a> {
    pub position: u64,
    pub stream_id: &'a str,
    pub stream_version: u64,
    pub event_id: Uuid,
    pub event_type: &'a str,
    pub schema_version: i32,
    pub payload: &'a str,
    pub metadata: &'a str,
    pub recorded_at: DateTime<Utc>,
    pub prev_hash: &'a str,
}

impl ChainFields<'_> {
    /// SHA-256 of the canonical bytes, as 64 lowercase hex digits.
    #[cfg(test)]
    pub fn hash(&self) -> String {
        self.hash_at(&format_time(self.recorded_at))
    }

    /// [`hash`](Self::hash) with `recorded_at` already formatted by [`format_time`]: the
    /// events of one commit share their time, so it is formatted once for all of them.
    pub fn hash_at(&self, recorded_at: &str) -> String {
        self.hash_into(recorded_at, &mut Vec::new())
    }

    /// [`hash_at`](Self::hash_at), writing the canonical bytes into `preimage` (cleared
    /// first): a group's events reuse one buffer, and SHA-256 takes the bytes in one call
    /// rather than a dozen small ones.
    pub fn hash_into(&self, recorded_at: &str, preimage: &mut Vec<u8>) -> String {
        // Hex digits are ASCII.
        String::from_utf8(self.hex_into(recorded_at, preimage).to_vec()).unwrap_or_default()
    }

    /// [`hash_into`](Self::hash_into)'s hex digits without a `String`: a rebuild compares
    /// every row's with its stored hash.
    pub fn hex_into(&self, recorded_at: &str, preimage: &mut Vec<u8>) -> [u8; 64] {
        let mut digits = [0u8; 64];
        // 32 bytes always fit 64 hex digits.
        hex::encode_to_slice(self.digest_into(recorded_at, preimage), &mut digits)
            .unwrap_or_default();
        digits
    }

    /// The SHA-256 of the canonical bytes.
    fn digest_into(&self, recorded_at: &str, preimage: &mut Vec<u8>) -> [u8; 32] {
        debug_assert_eq!(recorded_at, format_time(self.recorded_at));
        preimage.clear();
        let mut field = |bytes: &[u8]| {
            preimage.extend_from_slice(&(bytes.len() as u64).to_be_bytes());
            preimage.extend_from_slice(bytes);
        };
        // Numbers and the id are written into stack buffers: hashing allocates only its
        // answer (it runs once per appended event, inside the commit, and per row of a rebuild).
        let mut number = itoa::Buffer::new();
        let mut id = Uuid::encode_buffer();
        field(DOMAIN_TAG);
        field(number.format(self.position).as_bytes());
        field(self.stream_id.as_bytes());
        field(number.format(self.stream_version).as_bytes());
        field(self.event_id.hyphenated().encode_lower(&mut id).as_bytes());
        field(self.event_type.as_bytes());
        field(number.format(self.schema_version).as_bytes());
        field(self.payload.as_bytes());
        field(self.metadata.as_bytes());
        field(recorded_at.as_bytes());
        field(self.prev_hash.as_bytes());
        Sha256::digest(preimage.as_slice()).into()
    }
}

/// RFC 3339 in UTC with exactly six fractional digits, e.g. `2026-11-21T23:48:45.123456Z`.
pub fn format_time(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// The canonical JSON text of a value: the bytes stored and hashed. Object keys are sorted
/// (by their UTF-8 bytes), there is no whitespace, and strings and numbers are written as
/// serde_json writes them: integers exactly (the full `i64`/`u64` range, unlike RFC 8785's
/// doubles) and floats in their shortest round-trip form. Parsing the text and writing it
/// again yields the same bytes, so what is read back is exactly what was appended.
pub(crate) fn canonical_json(value: &serde_json::Value) -> Result<String, StoreError> {
    if *MAPS_ARE_SORTED {
        // serde_json then writes every object's keys in sorted order itself, and the rest
        // exactly as the canonical writer does, in one pass.
        return serde_json::to_string(value)
            .map_err(|error| StoreError::InvalidPayload { reason: error.to_string() });
    }
    let mut out = Vec::with_capacity(128);
    write_canonical(value, &mut out)?;
    String::from_utf8(out).map_err(|error| StoreError::InvalidPayload { reason: error.to_string() })
}

/// Whether serde_json's map type keeps its keys sorted in this build: it does unless some
/// crate in the build enables serde_json's `preserve_order` (then maps keep insertion order).
static MAPS_ARE_SORTED: LazyLock<bool> = LazyLock::new(|| {
    let map: serde_json::Map<String, serde_json::Value> =
        [("b".to_owned(), 1.into()), ("a".to_owned(), 2.into())].into_iter().collect();
    map.keys().map(String::as_str).eq(["a", "b"])
});

/// Writes into one buffer (scalars and keys straight from serde_json's writer), so a payload
/// costs no allocation per value.
fn write_canonical(value: &serde_json::Value, out: &mut Vec<u8>) -> Result<(), StoreError> {
    use serde_json::Value;
    let invalid =
        |error: serde_json::Error| StoreError::InvalidPayload { reason: error.to_string() };
    match value {
        Value::Array(items) => {
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_canonical(item, out)?;
            }
            out.push(b']');
        }
        Value::Object(map) => {
            // serde_json's map type keeps its keys sorted unless a crate in the build enables
            // `preserve_order`; only then is there anything to sort (and allocate).
            out.push(b'{');
            if map.keys().is_sorted() {
                write_entries(map.iter(), out)?;
            } else {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
                write_entries(entries.into_iter(), out)?;
            }
            out.push(b'}');
        }
        scalar => serde_json::to_writer(&mut *out, scalar).map_err(invalid)?,
    }
    Ok(())
}

/// An object's entries, in the order given, as `"key":value` pairs separated by commas.
fn write_entries<'a>(
    entries: impl Iterator<Item = (&'a String, &'a serde_json::Value)>,
    out: &mut Vec<u8>,
) -> Result<(), StoreError> {
    for (index, (key, item)) in entries.enumerate() {
        if index > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut *out, key)
            .map_err(|error| StoreError::InvalidPayload { reason: error.to_string() })?;
        out.push(b':');
        write_canonical(item, out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ChainFields<'static> {
        ChainFields {
            position: 1,
            stream_id: "league:1",
            stream_version: 1,
            event_id: Uuid::nil(),
            event_type: "LeagueCreated",
            schema_version: 1,
            payload: r#"{"name":"x"}"#,
            metadata: "{}",
            recorded_at: DateTime::from_timestamp(0, 0).expect("epoch"),
            prev_hash: GENESIS_HASH,
        }
    }

    #[test]
    fn every_field_changes_the_hash() {
        let base = sample().hash();
        let variants = [
            ChainFields { position: 2, ..sample() },
            ChainFields { stream_id: "league:2", ..sample() },
            ChainFields { stream_version: 2, ..sample() },
            ChainFields { event_id: Uuid::max(), ..sample() },
            ChainFields { event_type: "LeagueRenamed", ..sample() },
            ChainFields { schema_version: 2, ..sample() },
            ChainFields { payload: r#"{"name":"y"}"#, ..sample() },
            ChainFields { metadata: r#"{"a":1}"#, ..sample() },
            ChainFields { recorded_at: DateTime::from_timestamp(0, 1000).expect("t"), ..sample() },
            ChainFields { prev_hash: "1", ..sample() },
        ];
        for variant in variants {
            assert_ne!(variant.hash(), base, "{variant:?}");
        }
        assert_eq!(sample().hash(), base, "hashing is deterministic");
        assert_eq!(base.len(), 64);
    }

    /// The canonical bytes never change (every stored hash depends on them): the sample's
    /// hash as computed from the encoding described above by an independent script.
    #[test]
    fn the_encoding_is_fixed() {
        assert_eq!(
            sample().hash(),
            "212e576a2a48dc1e436597c49f44edcbd4bd7182ec88212370ecb39cf3761da3"
        );
        let extremes = ChainFields { schema_version: -7, position: u64::MAX, ..sample() };
        assert_eq!(
            extremes.hash(),
            "88d283626cab339a16b8ac6ab1b9f8846e4fbd6e9a0371673bb21381d67c58b2"
        );
    }

    #[test]
    fn field_boundaries_are_unambiguous() {
        let split_one = ChainFields { stream_id: "ab", event_type: "c", ..sample() };
        let split_two = ChainFields { stream_id: "a", event_type: "bc", ..sample() };
        assert_ne!(split_one.hash(), split_two.hash());
    }

    #[test]
    fn canonical_json_sorts_keys_and_drops_whitespace() {
        let value: serde_json::Value =
            serde_json::from_str(r#"{ "b": [1, 2.50, "é"], "a": {"z": null, "y": true} }"#)
                .expect("json");
        assert_eq!(
            canonical_json(&value).expect("canonical"),
            r#"{"a":{"y":true,"z":null},"b":[1,2.5,"é"]}"#
        );
    }

    #[test]
    fn the_one_pass_writer_and_the_sorting_writer_agree() {
        let value: serde_json::Value = serde_json::from_str(
            r#"{"z": {"b": [1, -2, 2.5e-7, {"y": null, "x": "\u00e9\n"}], "a": true},
                "é": 18446744073709551615, "A": [], "": {}}"#,
        )
        .expect("json");
        let mut sorted = Vec::new();
        write_canonical(&value, &mut sorted).expect("canonical");
        assert_eq!(canonical_json(&value).expect("canonical").as_bytes(), sorted.as_slice());
    }

    #[test]
    fn canonical_text_is_a_fixed_point() {
        let text = r#"{"big":18446744073709551615,"neg":-9223372036854775808,"f":[0.1,-0.0,1e300,5e-324],"s":"\u0000\n\"☃"}"#;
        let value: serde_json::Value = serde_json::from_str(text).expect("json");
        let canonical = canonical_json(&value).expect("canonical");
        let reparsed: serde_json::Value = serde_json::from_str(&canonical).expect("json");
        assert_eq!(reparsed, value);
        assert_eq!(canonical_json(&reparsed).expect("canonical"), canonical);
        assert!(canonical.contains("18446744073709551615") && canonical.contains("-0.0"));
    }

    #[test]
    fn times_have_six_fraction_digits() {
        let time = DateTime::from_timestamp(1_700_000_000, 120_000_000).expect("t");
        assert_eq!(format_time(time), "2023-11-14T22:13:20.120000Z");
    }
}
