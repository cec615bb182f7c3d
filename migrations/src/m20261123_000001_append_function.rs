//! PostgreSQL: the append as one server-side function, so a durable append costs one round
//! trip and one commit.
//!
//! `league_append` takes a whole group of appends (parallel arrays: one entry per append, and
//! the events of all appends concatenated) and, inside the calling statement's transaction:
//! takes the append advisory lock, reads the log's head once, then for each append in order
//! answers a reused idempotency key with the first append's positions, checks the expected
//! version against the stream (earlier appends of the same group included), chains and hashes
//! the events, inserts them and records the key. It ends with `pg_notify` for live readers.
//! One row per written event comes back (or one `conflict` / `deduplicated` row per append),
//! so the client learns every position and hash without a second round trip.
//!
//! The hash is computed here, byte for byte as `crates/store/src/hash.rs` does it (domain tag,
//! then each field as an 8-byte big-endian length and its UTF-8 bytes, time as RFC 3339 UTC
//! with six fractional digits), with PostgreSQL's built-in `sha256(bytea)`: computing it in
//! the client would need the head's hash first, a second round trip made while holding the
//! lock. `league verify` recomputes every hash in Rust, so any divergence would show at once.
//!
//! SQLite needs nothing: its appends run in-process in one `BEGIN IMMEDIATE` transaction.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

#[derive(Debug, DeriveMigrationName)]
pub struct Migration;

/// The advisory lock key is the store's `APPEND_LOCK_KEY` ("league" in ASCII); both must
/// agree, since direct appends and this function must exclude each other.
const POSTGRES_UP: &str = r#"
CREATE FUNCTION league_hash_field(b bytea) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT int8send(octet_length(b)::bigint) || b $$;

CREATE FUNCTION league_event_hash(
    p_position bigint, p_stream_id text, p_stream_version bigint, p_event_id uuid,
    p_event_type text, p_schema_version integer, p_payload text, p_metadata text,
    p_recorded_at timestamptz, p_prev_hash text
) RETURNS text
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$
    SELECT encode(sha256(
        league_hash_field(convert_to('league-event-v1', 'UTF8'))
        || league_hash_field(convert_to(p_position::text, 'UTF8'))
        || league_hash_field(convert_to(p_stream_id, 'UTF8'))
        || league_hash_field(convert_to(p_stream_version::text, 'UTF8'))
        || league_hash_field(convert_to(p_event_id::text, 'UTF8'))
        || league_hash_field(convert_to(p_event_type, 'UTF8'))
        || league_hash_field(convert_to(p_schema_version::text, 'UTF8'))
        || league_hash_field(convert_to(p_payload, 'UTF8'))
        || league_hash_field(convert_to(p_metadata, 'UTF8'))
        || league_hash_field(convert_to(
               to_char(p_recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), 'UTF8'))
        || league_hash_field(convert_to(p_prev_hash, 'UTF8'))
    ), 'hex')
    $$;

CREATE FUNCTION league_append(
    p_now timestamptz,
    p_streams text[],
    p_expected bigint[],
    p_keys text[],
    p_metadata text[],
    p_counts integer[],
    p_event_ids uuid[],
    p_types text[],
    p_schemas integer[],
    p_payloads text[]
) RETURNS TABLE (
    r_append integer,
    r_outcome text,
    r_position bigint,
    r_last_position bigint,
    r_version bigint,
    r_recorded_at timestamptz,
    r_prev_hash text,
    r_hash text
)
LANGUAGE plpgsql AS $$
DECLARE
    v_head bigint;
    v_hash text;
    v_time timestamptz;
    v_version bigint;
    v_key record;
    v_first integer := 1;
    v_count integer;
    v_written boolean := false;
    a_position bigint[];
    a_version bigint[];
    a_prev text[];
    a_hash text[];
BEGIN
    -- Serialise appends: positions are then assigned in commit order (no reader can see
    -- position n + 1 before n), and the head read below is the real head.
    PERFORM pg_advisory_xact_lock(119182681666917);
    SELECT e.position, e.hash, e.recorded_at INTO v_head, v_hash, v_time
      FROM events e ORDER BY e.position DESC LIMIT 1;
    IF NOT FOUND THEN
        v_head := 0;
        v_hash := repeat('0', 64);
    END IF;
    -- Commit times never decrease along positions, even if the clock steps back.
    v_time := greatest(v_time, p_now);

    FOR a IN 1 .. coalesce(array_length(p_streams, 1), 0) LOOP
        v_count := p_counts[a];
        IF p_keys[a] IS NOT NULL THEN
            SELECT k.first_position, k.last_position, k.stream_version INTO v_key
              FROM idempotency_keys k WHERE k.idempotency_key = p_keys[a];
            IF FOUND THEN
                RETURN QUERY SELECT a, 'deduplicated'::text, v_key.first_position,
                    v_key.last_position, v_key.stream_version, NULL::timestamptz, NULL::text,
                    NULL::text;
                v_first := v_first + v_count;
                CONTINUE;
            END IF;
        END IF;

        SELECT coalesce(max(e.stream_version), 0) INTO v_version
          FROM events e WHERE e.stream_id = p_streams[a];
        IF p_expected[a] IS NOT NULL AND p_expected[a] <> v_version THEN
            RETURN QUERY SELECT a, 'conflict'::text, NULL::bigint, NULL::bigint, v_version,
                NULL::timestamptz, NULL::text, NULL::text;
            v_first := v_first + v_count;
            CONTINUE;
        END IF;

        a_position := '{}';
        a_version := '{}';
        a_prev := '{}';
        a_hash := '{}';
        FOR i IN 1 .. v_count LOOP
            a_position[i] := v_head + i;
            a_version[i] := v_version + i;
            a_prev[i] := v_hash;
            v_hash := league_event_hash(v_head + i, p_streams[a], v_version + i,
                p_event_ids[v_first + i - 1], p_types[v_first + i - 1],
                p_schemas[v_first + i - 1], p_payloads[v_first + i - 1], p_metadata[a],
                v_time, v_hash);
            a_hash[i] := v_hash;
        END LOOP;

        INSERT INTO events (position, stream_id, stream_version, event_id, event_type,
                            schema_version, payload, metadata, recorded_at, prev_hash, hash)
        SELECT u.pos, p_streams[a], u.ver, u.id, u.typ, u.sch, u.pay, p_metadata[a], v_time,
               u.prev, u.hsh
          FROM unnest(a_position, a_version,
                      p_event_ids[v_first : v_first + v_count - 1],
                      p_types[v_first : v_first + v_count - 1],
                      p_schemas[v_first : v_first + v_count - 1],
                      p_payloads[v_first : v_first + v_count - 1],
                      a_prev, a_hash) AS u(pos, ver, id, typ, sch, pay, prev, hsh);

        IF p_keys[a] IS NOT NULL THEN
            INSERT INTO idempotency_keys
                (idempotency_key, stream_id, first_position, last_position, stream_version)
            VALUES (p_keys[a], p_streams[a], v_head + 1, v_head + v_count, v_version + v_count);
        END IF;

        RETURN QUERY SELECT a, 'written'::text, u.pos, NULL::bigint, u.ver, v_time, u.prev, u.hsh
          FROM unnest(a_position, a_version, a_prev, a_hash) AS u(pos, ver, prev, hsh);
        v_head := v_head + v_count;
        v_first := v_first + v_count;
        v_written := true;
    END LOOP;

    IF v_written THEN
        -- Delivered only if and when the transaction commits.
        PERFORM pg_notify('league_events', v_head::text);
    END IF;
END
$$;
"#;

const POSTGRES_DOWN: &str = r#"
DROP FUNCTION league_append(timestamptz, text[], bigint[], text[], text[], integer[], uuid[],
                            text[], integer[], text[]);
DROP FUNCTION league_event_hash(bigint, text, bigint, uuid, text, integer, text, text,
                                timestamptz, text);
DROP FUNCTION league_hash_field(bytea);
"#;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        match db.get_database_backend() {
            DbBackend::Postgres => {
                db.execute_unprepared(POSTGRES_UP).await?;
            }
            DbBackend::Sqlite => {}
            other => {
                return Err(DbErr::Migration(format!("unsupported database backend: {other:?}")));
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        if db.get_database_backend() == DbBackend::Postgres {
            db.execute_unprepared(POSTGRES_DOWN).await?;
        }
        Ok(())
    }
}
