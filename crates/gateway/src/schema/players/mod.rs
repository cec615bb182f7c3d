//! Players over GraphQL: the `Player` object, reads of players and of a player's personal
//! data, registering a player and the changes of tokens, rights and personal data.

pub(super) mod mutation;
pub(super) mod query;
pub(super) mod types;
