//! A player's permanent keep-apart list (`docs/tournaments.md#a-players-permanent-keep-apart-list`):
//! the players they are never to share a board with, carried to every tournament round they
//! are seeded in. Only the player themself or the site admin changes or reads it; its reasons
//! are personal data, sealed under the player's key, and an erasure drops the list
//! (`docs/personal-data.md`).

use serde::{Deserialize, Serialize};

use super::Player;
use super::events::PlayerEvent;
use crate::context::Context;
use crate::error::DomainError;
use crate::ids::{Actor, PlayerId};
use crate::personal::PersonalText;
use crate::rules::clean_reason;

/// The field a permanent keep-apart reason is sealed as.
pub const KEEP_APART_REASON_FIELD: &str = "keepApartReason";

/// The most players one permanent keep-apart list may hold.
pub const MAX_PERMANENT_KEEP_APART: usize = 50;

/// The player put `other` on their permanent keep-apart list. The reason, if given, is
/// sealed under the player's key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PermanentKeepApartAdded {
    pub player_id: PlayerId,
    pub other: PlayerId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<PersonalText>,
    pub added_by: Actor,
}

/// The player took `other` off their permanent keep-apart list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PermanentKeepApartRemoved {
    pub player_id: PlayerId,
    pub other: PlayerId,
    pub removed_by: Actor,
}

/// The player (or the site admin) puts `other` on the player's permanent keep-apart list
/// (`keep: true`) or takes them off it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangePermanentKeepApart {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub other: PlayerId,
    pub keep: bool,
    pub reason: Option<String>,
}

/// One entry of a permanent keep-apart list: the other player and the reason as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct PermanentKeepApart {
    pub other: PlayerId,
    pub reason: Option<PersonalText>,
}

impl Player {
    /// The player's permanent keep-apart list, in the order added (empty once erased).
    pub fn permanent_keep_apart(&self) -> &[PermanentKeepApart] {
        &self.keep_apart
    }

    pub(super) fn change_permanent_keep_apart(
        &self,
        c: &ChangePermanentKeepApart,
        context: &Context,
    ) -> Result<Vec<PlayerEvent>, DomainError> {
        if c.actor.player_id() != Some(c.player_id) && !c.actor.is_admin() {
            return Err(DomainError::forbidden(
                "only the player themself or the site admin may change their keep-apart list",
            ));
        }
        self.registered(c.player_id)?;
        if c.other == c.player_id {
            return Err(DomainError::invalid("other", "a player is not kept apart from themself"));
        }
        if context.unknown_players.contains(&c.other) {
            return Err(DomainError::PlayerNotFound(c.other));
        }
        let listed = self.keep_apart.iter().any(|entry| entry.other == c.other);
        if !c.keep {
            if !listed {
                return Err(DomainError::conflict(format!(
                    "player {} is not on the keep-apart list",
                    c.other
                )));
            }
            return Ok(vec![PlayerEvent::PermanentKeepApartRemoved(PermanentKeepApartRemoved {
                player_id: c.player_id,
                other: c.other,
                removed_by: c.actor,
            })]);
        }
        context.refuse_erased(c.other)?;
        let reason = c.reason.as_deref().filter(|r| !r.trim().is_empty()).map(clean_reason);
        let reason = reason.transpose()?;
        if listed {
            return Err(DomainError::conflict(format!(
                "player {} is already on the keep-apart list",
                c.other
            )));
        }
        if self.keep_apart.len() >= MAX_PERMANENT_KEEP_APART {
            return Err(DomainError::conflict(format!(
                "a keep-apart list holds at most {MAX_PERMANENT_KEEP_APART} players; remove one first"
            )));
        }
        Ok(vec![PlayerEvent::PermanentKeepApartAdded(PermanentKeepApartAdded {
            player_id: c.player_id,
            other: c.other,
            reason: reason.map(PersonalText::Plain),
            added_by: c.actor,
        })])
    }

    /// Folds a change of the list.
    pub(super) fn apply_keep_apart(&mut self, event: &PlayerEvent) {
        match event {
            PlayerEvent::PermanentKeepApartAdded(e) => {
                self.keep_apart
                    .push(PermanentKeepApart { other: e.other, reason: e.reason.clone() });
            }
            PlayerEvent::PermanentKeepApartRemoved(e) => {
                self.keep_apart.retain(|entry| entry.other != e.other);
            }
            PlayerEvent::PlayerErased(_) => self.keep_apart.clear(),
            _ => {}
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::aggregate::Aggregate;
    use crate::error::ErrorCode;
    use crate::events::DomainEvent;
    use crate::fixtures::player;
    use crate::personal::{PERSON_KEY_LEN, PersonKey, SEAL_NONCE_LEN};
    use crate::player::commands::PlayerCommand;
    use crate::player::events::{PlayerErased, PlayerRegistered};

    const ADA: u128 = 60;
    const BEN: u128 = 61;

    fn context() -> Context {
        Context::new(Utc.with_ymd_and_hms(2026, 11, 28, 9, 0, 0).unwrap())
    }

    fn registered() -> Vec<DomainEvent> {
        vec![DomainEvent::Player(PlayerEvent::PlayerRegistered(PlayerRegistered {
            player_id: player(ADA),
            name: PersonalText::Plain("Ada".into()),
            token_hash: "token".into(),
        }))]
    }

    fn change(actor: Actor, other: u128, keep: bool, reason: Option<&str>) -> PlayerCommand {
        PlayerCommand::ChangePermanentKeepApart(ChangePermanentKeepApart {
            actor,
            player_id: player(ADA),
            other: player(other),
            keep,
            reason: reason.map(str::to_owned),
        })
    }

    fn ada() -> Actor {
        Actor::Player(player(ADA))
    }

    fn when(
        events: &[DomainEvent],
        command: PlayerCommand,
        context: &Context,
    ) -> Result<Vec<DomainEvent>, DomainError> {
        Player::from_events(events).decide(&command, context)
    }

    fn then(events: &mut Vec<DomainEvent>, command: PlayerCommand) {
        let decided = when(events, command, &context()).unwrap();
        events.extend(decided);
    }

    /// One of each permanent keep-apart event, as the golden file holds them (the reason
    /// sealed as the application stores it).
    pub(crate) fn one_of_each_keep_apart_event() -> [DomainEvent; 2] {
        let key = PersonKey::from_bytes([9; PERSON_KEY_LEN]);
        let reason = PersonalText::seal(
            &key,
            [4; SEAL_NONCE_LEN],
            player(50),
            KEEP_APART_REASON_FIELD,
            "we share a flat",
        );
        [
            DomainEvent::Player(PlayerEvent::PermanentKeepApartAdded(PermanentKeepApartAdded {
                player_id: player(50),
                other: player(1),
                reason: Some(reason),
                added_by: Actor::Player(player(50)),
            })),
            DomainEvent::Player(PlayerEvent::PermanentKeepApartRemoved(
                PermanentKeepApartRemoved {
                    player_id: player(50),
                    other: player(1),
                    removed_by: Actor::Admin,
                },
            )),
        ]
    }

    #[test]
    fn a_player_lists_and_unlists_others_and_the_site_admin_may_too() {
        let mut events = registered();
        then(&mut events, change(ada(), BEN, true, Some(" my brother ")));
        then(&mut events, change(Actor::Admin, 62, true, None));
        let listed = Player::from_events(&events);
        let entries = listed.permanent_keep_apart();
        assert_eq!(entries.iter().map(|e| e.other).collect::<Vec<_>>(), [player(BEN), player(62)]);
        assert_eq!(entries[0].reason, Some(PersonalText::Plain("my brother".into())));
        assert_eq!(entries[1].reason, None);

        then(&mut events, change(ada(), BEN, false, None));
        let entries = Player::from_events(&events).permanent_keep_apart().to_vec();
        assert_eq!(entries.iter().map(|e| e.other).collect::<Vec<_>>(), [player(62)]);
    }

    #[test]
    fn refusals_are_typed_and_rights_come_first() {
        let mut events = registered();
        then(&mut events, change(ada(), BEN, true, None));
        let code = |command, context: &Context| when(&events, command, context).unwrap_err().code();
        let ben = Actor::Player(player(BEN));
        // Another player may not, even to a change that would be refused anyway.
        assert_eq!(code(change(ben, BEN, true, None), &context()), ErrorCode::Forbidden);
        assert_eq!(code(change(ben, 70, true, None), &context()), ErrorCode::Forbidden);
        let field = ErrorCode::BadUserInput { field: "other".into() };
        assert_eq!(code(change(ada(), ADA, true, None), &context()), field);
        assert_eq!(code(change(ada(), BEN, true, None), &context()), ErrorCode::Conflict);
        assert_eq!(code(change(ada(), 70, false, None), &context()), ErrorCode::Conflict);
        let unknown = context().with_unknown_players(vec![player(70)]);
        assert_eq!(code(change(ada(), 70, true, None), &unknown), ErrorCode::NotFound);
        let erased = context().with_erased_players(vec![player(70)]);
        assert_eq!(code(change(ada(), 70, true, None), &erased), ErrorCode::Conflict);
        let nobody = when(&[], change(Actor::Admin, BEN, true, None), &context());
        assert_eq!(nobody.unwrap_err().code(), ErrorCode::NotFound);
    }

    #[test]
    fn an_erasure_drops_the_list() {
        let mut events = registered();
        then(&mut events, change(ada(), BEN, true, Some("rival")));
        events.push(DomainEvent::Player(PlayerEvent::PlayerErased(PlayerErased {
            player_id: player(ADA),
            erased_by: Actor::Admin,
            reason: "asked".into(),
        })));
        assert!(Player::from_events(&events).permanent_keep_apart().is_empty());
    }
}
