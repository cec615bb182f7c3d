//! PostgreSQL: `league_append_hashed`, an append whose hash chain the store computes itself.
//!
//! `league_append` (migrations `m20261123_000001`, `m20261123_000003`) chains the hashes in
//! plpgsql, one `sha256` expression per event, because the client does not know the head's
//! hash before it holds the lock. But a store usually does: it wrote the head itself. So the
//! store predicts the state its group will meet (the head's position and hash, each stream's
//! version, its idempotency keys unused), decides every append against that prediction,
//! hashes the events in Rust (the same bytes as `crates/store/src/hash.rs`, which `league
//! verify` re-checks) and sends the finished rows. This function, in one round trip:
//!
//! - takes the append advisory lock (the same key as `league_append`, so both exclude each
//!   other), reads the head and checks it is the predicted one (position and hash, and that
//!   the group's commit time does not go back before the head's);
//! - checks that none of the group's keys is used and every stream is at its predicted version;
//! - if all holds, the store's decisions are exactly the ones `league_append` would make, so it
//!   inserts the rows with one `INSERT … SELECT FROM unnest(…)`, records the keys, and calls
//!   `pg_notify` as before; it answers one `written` row with the new head;
//! - otherwise it writes nothing and answers the real state (a `head` row, a `key` row per used
//!   key, a `stream` row per stream) so the store can decide again; after a second miss the
//!   store falls back to `league_append`, which decides everything itself.
//!
//! `down` drops the function; `league_append` is untouched by `up`.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

#[derive(Debug, DeriveMigrationName)]
pub struct Migration;

/// The advisory lock key is the store's ("league" in ASCII), as in `league_append`.
const POSTGRES_UP: &str = r#"
CREATE FUNCTION league_append_hashed(
    p_head bigint,
    p_head_hash text,
    p_time timestamptz,
    p_check_keys text[],
    p_check_streams text[],
    p_check_versions bigint[],
    p_streams text[],
    p_metadata text[],
    p_ev_append integer[],
    p_ev_versions bigint[],
    p_event_ids uuid[],
    p_types text[],
    p_schemas integer[],
    p_payloads text[],
    p_prev_hashes text[],
    p_hashes text[],
    p_key_keys text[],
    p_key_streams text[],
    p_key_first bigint[],
    p_key_last bigint[],
    p_key_versions bigint[]
) RETURNS TABLE (
    r_kind text,
    r_name text,
    r_position bigint,
    r_last_position bigint,
    r_version bigint,
    r_hash text,
    r_time timestamptz
)
LANGUAGE plpgsql AS $$
DECLARE
    v_head bigint;
    v_hash text;
    v_time timestamptz;
    v_count integer := coalesce(array_length(p_hashes, 1), 0);
BEGIN
    -- Serialise appends: positions are then assigned in commit order, and the head read
    -- below is the real head.
    PERFORM pg_advisory_xact_lock(119182681666917);
    SELECT e.position, e.hash, e.recorded_at INTO v_head, v_hash, v_time
      FROM events e ORDER BY e.position DESC LIMIT 1;
    IF NOT FOUND THEN
        v_head := 0;
        v_hash := repeat('0', 64);
    END IF;

    IF v_head <> p_head OR v_hash <> p_head_hash OR v_time > p_time
       OR EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.idempotency_key = ANY (p_check_keys))
       OR EXISTS (SELECT 1 FROM unnest(p_check_streams, p_check_versions) AS c(s, v)
                   WHERE coalesce((SELECT max(e.stream_version) FROM events e
                                    WHERE e.stream_id = c.s), 0) <> c.v) THEN
        -- The prediction missed: nothing is written; the store decides again on this state.
        RETURN QUERY
            SELECT 'head'::text, NULL::text, v_head, NULL::bigint, NULL::bigint, v_hash, v_time
            UNION ALL
            SELECT 'key', k.idempotency_key, k.first_position, k.last_position,
                   k.stream_version, NULL, NULL
              FROM idempotency_keys k WHERE k.idempotency_key = ANY (p_check_keys)
            UNION ALL
            SELECT 'stream', c.s, NULL, NULL,
                   coalesce((SELECT max(e.stream_version) FROM events e
                              WHERE e.stream_id = c.s), 0), NULL, NULL
              FROM unnest(p_check_streams) AS c(s);
        RETURN;
    END IF;

    IF v_count > 0 THEN
        INSERT INTO events (position, stream_id, stream_version, event_id, event_type,
                            schema_version, payload, metadata, recorded_at, prev_hash, hash)
        SELECT p_head + u.n, p_streams[u.a], u.v, u.id, u.typ, u.sch, u.pay, p_metadata[u.a],
               p_time, u.prev, u.hsh
          FROM unnest(p_ev_append, p_ev_versions, p_event_ids, p_types, p_schemas, p_payloads,
                      p_prev_hashes, p_hashes)
               WITH ORDINALITY AS u(a, v, id, typ, sch, pay, prev, hsh, n);
        INSERT INTO idempotency_keys
            (idempotency_key, stream_id, first_position, last_position, stream_version)
        SELECT * FROM unnest(p_key_keys, p_key_streams, p_key_first, p_key_last, p_key_versions);
        -- Delivered only if and when the transaction commits.
        PERFORM pg_notify('league_events', (p_head + v_count)::text);
    END IF;
    RETURN QUERY SELECT 'written'::text, NULL::text, p_head + v_count, NULL::bigint,
                        NULL::bigint, NULL::text, NULL::timestamptz;
END
$$;
"#;

const POSTGRES_DOWN: &str = r#"
DROP FUNCTION league_append_hashed(bigint, text, timestamptz, text[], text[], bigint[], text[],
    text[], integer[], bigint[], uuid[], text[], integer[], text[], text[], text[], text[],
    text[], bigint[], bigint[], bigint[]);
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
        let db = manager.get_connection();
        if db.get_database_backend() == DbBackend::Postgres {
            db.execute_unprepared(POSTGRES_DOWN).await?;
        }
        Ok(())
    }
}
