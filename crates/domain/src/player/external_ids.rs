//! External ids (`docs/tournaments.md#external-ids`): the ids a player is known by in other
//! systems, such as the World Diplomacy Reference, recorded on their own stream so that a
//! competition's exports can carry them. An id is personal data: the application seals it
//! under the player's key (`docs/personal-data.md`), so an erasure leaves it unreadable.

use super::Player;
use super::events::{ExternalIdRecorded, PlayerEvent};
use crate::context::Context;
use crate::error::DomainError;
use crate::ids::{Actor, PlayerId};
use crate::personal::PersonalText;

/// The system of a World Diplomacy Reference id (a positive number).
pub const WDR: &str = "wdr";
/// The most characters an external id may have.
pub const MAX_EXTERNAL_ID_CHARS: usize = 64;
/// The most characters an external id's system may have.
pub const MAX_EXTERNAL_SYSTEM_CHARS: usize = 32;

/// The player, the site admin, or an organiser of a competition the player takes part in
/// records the id `id` the player has in `system` (`wdr` …); a later id of the same system
/// replaces it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordExternalId {
    pub actor: Actor,
    pub player_id: PlayerId,
    pub system: String,
    pub id: String,
}

/// A system's name: lower-case ASCII letters, digits and `-`, at most
/// [`MAX_EXTERNAL_SYSTEM_CHARS`] (`wdr`).
pub fn check_external_system(system: &str) -> Result<(), String> {
    let named = !system.is_empty()
        && system.len() <= MAX_EXTERNAL_SYSTEM_CHARS
        && system.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if named {
        Ok(())
    } else {
        Err(format!(
            "{system:?} is no external id name (letters, digits and -, at most \
             {MAX_EXTERNAL_SYSTEM_CHARS})"
        ))
    }
}

/// A World Diplomacy Reference id is a positive number; any other id is a printable text of
/// at most [`MAX_EXTERNAL_ID_CHARS`].
pub fn check_external_id(system: &str, id: &str) -> Result<(), String> {
    if system == WDR {
        let digits = id.len() <= 10 && id.chars().all(|c| c.is_ascii_digit());
        return if digits && id.parse::<u64>().is_ok_and(|n| n > 0) {
            Ok(())
        } else {
            Err(format!("{id:?} is no World Diplomacy Reference id (a positive number)"))
        };
    }
    if id.is_empty() {
        return Err("must not be empty".into());
    }
    if id.chars().count() > MAX_EXTERNAL_ID_CHARS || id.chars().any(char::is_control) {
        return Err(format!("must be at most {MAX_EXTERNAL_ID_CHARS} printable characters"));
    }
    Ok(())
}

impl Player {
    /// The latest external id recorded of each system, as stored (sealed under the player's
    /// key; empty once erased).
    pub fn external_ids(&self) -> &std::collections::BTreeMap<String, PersonalText> {
        &self.external_ids
    }

    /// Folds a recorded id: a later one of the same system replaces the earlier.
    pub(super) fn apply_external_id(&mut self, event: &PlayerEvent) {
        match event {
            PlayerEvent::ExternalIdRecorded(e) => {
                self.external_ids.insert(e.system.clone(), e.id.clone());
            }
            PlayerEvent::PlayerErased(_) => self.external_ids.clear(),
            _ => {}
        }
    }

    pub(super) fn record_external_id(
        &self,
        c: &RecordExternalId,
        context: &Context,
    ) -> Result<Vec<PlayerEvent>, DomainError> {
        let own = c.actor.player_id() == Some(c.player_id);
        if !c.actor.is_admin() && !own && !context.actor_organises_player {
            return Err(DomainError::forbidden(
                "only the site admin, the player, or an organiser of a competition the player \
                 takes part in may record the player's external ids",
            ));
        }
        self.registered(c.player_id)?;
        let system = c.system.trim().to_ascii_lowercase();
        check_external_system(&system)
            .map_err(|message| DomainError::invalid("system", message))?;
        let id = c.id.trim();
        check_external_id(&system, id).map_err(|message| DomainError::invalid("id", message))?;
        Ok(vec![PlayerEvent::ExternalIdRecorded(ExternalIdRecorded {
            player_id: c.player_id,
            system,
            id: PersonalText::Plain(id.to_owned()),
            recorded_by: c.actor,
        })])
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::aggregate::Aggregate;
    use crate::events::DomainEvent;
    use crate::player::{PlayerCommand, PlayerErased, PlayerRegistered};

    const ANN: u128 = 81;
    const ORGANISER: u128 = 82;

    fn player(n: u128) -> PlayerId {
        uuid::Uuid::from_u128(n).into()
    }

    fn context() -> Context {
        Context::new(Utc.with_ymd_and_hms(2026, 11, 28, 9, 0, 0).unwrap())
    }

    /// Given Ann registered (and the events after).
    fn given(after: Vec<DomainEvent>) -> Player {
        let registered = DomainEvent::Player(PlayerEvent::PlayerRegistered(PlayerRegistered {
            player_id: player(ANN),
            name: PersonalText::Plain("Ann".into()),
            token_hash: "hash".into(),
        }));
        let mut state = Player::default();
        for event in std::iter::once(registered).chain(after) {
            let DomainEvent::Player(event) = event else { unreachable!("a player's event") };
            state.apply(&event);
        }
        state
    }

    fn record(actor: Actor, system: &str, id: &str) -> PlayerCommand {
        RecordExternalId { actor, player_id: player(ANN), system: system.into(), id: id.into() }
            .into()
    }

    fn code(result: Result<Vec<DomainEvent>, DomainError>) -> String {
        result.expect_err("refused").code().as_str().to_owned()
    }

    /// An id as stored: sealed (`crate::tests`' one event of every type).
    pub(crate) fn one_of_each_external_id_event() -> DomainEvent {
        let key = crate::personal::PersonKey::from_bytes([9; crate::personal::PERSON_KEY_LEN]);
        let player = crate::fixtures::player(50);
        let nonce = [4; crate::personal::SEAL_NONCE_LEN];
        DomainEvent::Player(PlayerEvent::ExternalIdRecorded(ExternalIdRecorded {
            player_id: player,
            system: WDR.into(),
            id: PersonalText::seal(&key, nonce, player, "externalId", "1234"),
            recorded_by: Actor::Player(player),
        }))
    }

    #[test]
    fn an_organiser_of_a_competition_the_player_takes_part_in_records_their_wdr_id() {
        let organiser = Actor::Player(player(ORGANISER));
        let theirs = context().with_actor_organising_player(true);
        let events = given(vec![]).decide(&record(organiser, " WDR ", " 1234 "), &theirs).unwrap();
        assert_eq!(
            events,
            [DomainEvent::Player(PlayerEvent::ExternalIdRecorded(ExternalIdRecorded {
                player_id: player(ANN),
                system: "wdr".into(),
                id: PersonalText::Plain("1234".into()),
                recorded_by: organiser,
            }))]
        );
    }

    #[test]
    fn the_player_and_the_site_admin_record_ids_and_nobody_else_does() {
        let ann = Actor::Player(player(ANN));
        assert!(given(vec![]).decide(&record(ann, "wdr", "7"), &context()).is_ok());
        assert!(given(vec![]).decide(&record(Actor::Admin, "club", "P-7"), &context()).is_ok());
        let stranger = Actor::Player(player(ORGANISER));
        assert_eq!(
            code(given(vec![]).decide(&record(stranger, "wdr", "7"), &context())),
            "FORBIDDEN"
        );
    }

    #[test]
    fn a_wdr_id_is_a_positive_number_and_a_system_a_lower_case_name() {
        let admin = Actor::Admin;
        for (system, id, field) in [
            ("wdr", "0", "id"),
            ("wdr", "12a", "id"),
            ("wdr", "", "id"),
            ("club", "", "id"),
            ("club", &"x".repeat(65), "id"),
            ("", "1", "system"),
            ("club!", "1", "system"),
            ("wd r", "1", "system"),
        ] {
            let error = given(vec![]).decide(&record(admin, system, id), &context()).unwrap_err();
            assert_eq!(error.code().as_str(), "BAD_USER_INPUT", "{system} {id}");
            assert!(
                matches!(&error, DomainError::InvalidInput { field: f, .. } if f == field),
                "{error:?}"
            );
        }
    }

    #[test]
    fn an_erased_player_gets_no_id_recorded() {
        let erased = DomainEvent::Player(PlayerEvent::PlayerErased(PlayerErased {
            player_id: player(ANN),
            erased_by: Actor::Admin,
            reason: "asked".into(),
        }));
        let result = given(vec![erased]).decide(&record(Actor::Admin, "wdr", "7"), &context());
        assert_eq!(code(result), "CONFLICT");
    }

    #[test]
    fn the_latest_id_of_each_system_is_kept_until_an_erasure() {
        let recorded = |system: &str, id: &str| {
            DomainEvent::Player(PlayerEvent::ExternalIdRecorded(ExternalIdRecorded {
                player_id: player(ANN),
                system: system.into(),
                id: PersonalText::Plain(id.into()),
                recorded_by: Actor::Admin,
            }))
        };
        let state =
            given(vec![recorded("wdr", "7"), recorded("club", "P-1"), recorded("wdr", "9")]);
        let ids: Vec<(&str, &PersonalText)> =
            state.external_ids().iter().map(|(system, id)| (system.as_str(), id)).collect();
        let plain = |id: &str| PersonalText::Plain(id.into());
        assert_eq!(ids, [("club", &plain("P-1")), ("wdr", &plain("9"))]);
        let erased = DomainEvent::Player(PlayerEvent::PlayerErased(PlayerErased {
            player_id: player(ANN),
            erased_by: Actor::Admin,
            reason: "asked".into(),
        }));
        assert!(given(vec![recorded("wdr", "7"), erased]).external_ids().is_empty());
    }
}
