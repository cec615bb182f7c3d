//! PostgreSQL: `league_append` again, doing less per event. Same signature, same answers, same
//! hashed bytes (`docs/architecture.md`, "Event store"); only the body changes:
//!
//! - the parts of an event's hashed bytes that do not change along a call (domain tag, commit
//!   time) or along one append (stream id, metadata) are encoded once instead of per event;
//! - the fields that are ASCII by construction (decimal numbers, the UUID's text, the previous
//!   hash in hex) enter as their text's bytes directly instead of through an encoding
//!   conversion (none of them can hold a backslash, the one character the `bytea` cast reads);
//! - positions and stream versions come from each row's ordinal in the insert itself, so the
//!   per-event loop only chains the hashes.
//!
//! The function stays one round trip: lock, head, then per append the idempotency key, the
//! expected version, the chained hashes, one `INSERT … SELECT FROM unnest(…)`, the key's row.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

use crate::m20261123_000001_append_function as first_version;

#[derive(Debug, DeriveMigrationName)]
pub struct Migration;

/// The advisory lock key is the store's `APPEND_LOCK_KEY` ("league" in ASCII), as before.
const POSTGRES_UP: &str = r#"
CREATE OR REPLACE FUNCTION league_append(
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
    v_last integer;
    v_count integer;
    v_written boolean := false;
    c_tag bytea;
    c_time bytea;
    c_stream bytea;
    c_metadata bytea;
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
    c_tag := league_hash_field(convert_to('league-event-v1', 'UTF8'));
    c_time := league_hash_field(convert_to(
        to_char(v_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), 'UTF8'));

    FOR a IN 1 .. coalesce(array_length(p_streams, 1), 0) LOOP
        v_count := p_counts[a];
        v_last := v_first + v_count - 1;
        IF p_keys[a] IS NOT NULL THEN
            SELECT k.first_position, k.last_position, k.stream_version INTO v_key
              FROM idempotency_keys k WHERE k.idempotency_key = p_keys[a];
            IF FOUND THEN
                RETURN QUERY SELECT a, 'deduplicated'::text, v_key.first_position,
                    v_key.last_position, v_key.stream_version, NULL::timestamptz, NULL::text,
                    NULL::text;
                v_first := v_last + 1;
                CONTINUE;
            END IF;
        END IF;

        SELECT coalesce(max(e.stream_version), 0) INTO v_version
          FROM events e WHERE e.stream_id = p_streams[a];
        IF p_expected[a] IS NOT NULL AND p_expected[a] <> v_version THEN
            RETURN QUERY SELECT a, 'conflict'::text, NULL::bigint, NULL::bigint, v_version,
                NULL::timestamptz, NULL::text, NULL::text;
            v_first := v_last + 1;
            CONTINUE;
        END IF;

        c_stream := league_hash_field(convert_to(p_streams[a], 'UTF8'));
        c_metadata := league_hash_field(convert_to(p_metadata[a], 'UTF8'));
        a_prev := '{}';
        a_hash := '{}';
        FOR i IN 1 .. v_count LOOP
            a_prev[i] := v_hash;
            v_hash := encode(sha256(
                c_tag
                || league_hash_field((v_head + i)::text::bytea)
                || c_stream
                || league_hash_field((v_version + i)::text::bytea)
                || league_hash_field(p_event_ids[v_first + i - 1]::text::bytea)
                || league_hash_field(convert_to(p_types[v_first + i - 1], 'UTF8'))
                || league_hash_field(p_schemas[v_first + i - 1]::text::bytea)
                || league_hash_field(convert_to(p_payloads[v_first + i - 1], 'UTF8'))
                || c_metadata
                || c_time
                || league_hash_field(v_hash::bytea)
            ), 'hex');
            a_hash[i] := v_hash;
        END LOOP;

        INSERT INTO events (position, stream_id, stream_version, event_id, event_type,
                            schema_version, payload, metadata, recorded_at, prev_hash, hash)
        SELECT v_head + u.n, p_streams[a], v_version + u.n, u.id, u.typ, u.sch, u.pay,
               p_metadata[a], v_time, u.prev, u.hsh
          FROM unnest(p_event_ids[v_first : v_last], p_types[v_first : v_last],
                      p_schemas[v_first : v_last], p_payloads[v_first : v_last],
                      a_prev, a_hash) WITH ORDINALITY AS u(id, typ, sch, pay, prev, hsh, n);

        IF p_keys[a] IS NOT NULL THEN
            INSERT INTO idempotency_keys
                (idempotency_key, stream_id, first_position, last_position, stream_version)
            VALUES (p_keys[a], p_streams[a], v_head + 1, v_head + v_count, v_version + v_count);
        END IF;

        RETURN QUERY SELECT a, 'written'::text, v_head + u.n, NULL::bigint, v_version + u.n,
                            v_time, u.prev, u.hsh
          FROM unnest(a_prev, a_hash) WITH ORDINALITY AS u(prev, hsh, n);
        v_head := v_head + v_count;
        v_first := v_last + 1;
        v_written := true;
    END LOOP;

    IF v_written THEN
        -- Delivered only if and when the transaction commits.
        PERFORM pg_notify('league_events', v_head::text);
    END IF;
END
$$;
"#;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        if db.get_database_backend() == DbBackend::Postgres {
            db.execute_unprepared(POSTGRES_UP).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // The first version's functions, exactly as that migration creates them.
        first_version::Migration.down(manager).await?;
        first_version::Migration.up(manager).await
    }
}
