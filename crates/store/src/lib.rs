//! Append-only, hash-chained event store over sea-orm (SQLite, PostgreSQL).
