//! The conversions between the API's numbers and the database's columns, shared by the
//! façade, the engines and the tables beside the log: positions and versions are `u64` in
//! the API and `BIGINT` (`i64`) in the database.

/// A position or version as stored; the log cannot realistically pass `i64::MAX`, so
/// saturating is only a guard.
pub(crate) fn to_db(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// A stored position or version as the API's (a negative one, which the store never
/// writes, reads as 0).
pub(crate) fn from_db(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}
