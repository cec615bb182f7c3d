//! The player's sessions and sign-in links (`docs/sign-in.md`): who may start, renew and end
//! a session, and who may issue a single-use sign-in link for whom. Secrets never reach the
//! domain: a session and a link are known by their SHA-256 only.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use super::Player;
use super::commands::{EndAllSessions, EndSession, IssueSignInLink, RenewSession, StartSession};
use super::events::{
    AllSessionsEnded, PlayerEvent, SessionEnded, SessionRenewed, SessionStarted, SignInLinkIssued,
    SignInMethod,
};
use crate::context::Context;
use crate::error::DomainError;
use crate::ids::{Actor, PlayerId};

/// The longest a sign-in link may stay valid: long enough to print the sheets the week
/// before an event, short enough that a lost sheet stops mattering.
pub const MAX_SIGN_IN_LINK_DAYS: i64 = 30;

/// The most characters of a session's device label.
pub const MAX_DEVICE_LABEL_LEN: usize = 60;

/// What the player's stream says about sessions and links.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct SignIns {
    /// Sessions not ended.
    live: HashSet<Uuid>,
    /// Every session hash ever started (a hash names one session only).
    session_hashes: HashSet<String>,
    /// Link hash → when it expires, for links not used yet.
    unused_links: HashMap<String, DateTime<Utc>>,
    /// Every link hash ever issued.
    issued_links: HashSet<String>,
}

impl SignIns {
    pub(super) fn apply(&mut self, event: &PlayerEvent) {
        match event {
            PlayerEvent::SessionStarted(e) => {
                self.live.insert(e.session_id);
                self.session_hashes.insert(e.session_hash.clone());
                if let Some(link) = &e.link_hash {
                    self.unused_links.remove(link);
                }
            }
            PlayerEvent::SessionEnded(e) => {
                self.live.remove(&e.session_id);
            }
            PlayerEvent::AllSessionsEnded(_) | PlayerEvent::PlayerErased(_) => {
                self.live.clear();
                self.unused_links.clear();
            }
            PlayerEvent::SignInLinkIssued(e) => {
                self.unused_links.insert(e.link_hash.clone(), e.expires_at);
                self.issued_links.insert(e.link_hash.clone());
            }
            PlayerEvent::PlayerRegistered(_)
            | PlayerEvent::TokenRotated(_)
            | PlayerEvent::TokenRevoked(_)
            | PlayerEvent::OrganiserAppointed(_)
            | PlayerEvent::OrganiserDismissed(_)
            | PlayerEvent::SessionRenewed(_)
            | PlayerEvent::PasskeyAdded(_)
            | PlayerEvent::PasskeyRemoved(_)
            | PlayerEvent::IdentityLinked(_)
            | PlayerEvent::IdentityUnlinked(_)
            | PlayerEvent::InviteIssued(_)
            | PlayerEvent::InviteRevoked(_)
            | PlayerEvent::PermanentKeepApartAdded(_)
            | PlayerEvent::PermanentKeepApartRemoved(_)
            | PlayerEvent::ExternalIdRecorded(_) => {}
        }
    }

    /// Sessions not ended.
    pub(super) fn live_sessions(&self) -> usize {
        self.live.len()
    }
}

impl Player {
    pub(super) fn start_session(
        &self,
        c: &StartSession,
        context: &Context,
    ) -> Result<Vec<PlayerEvent>, DomainError> {
        only_the_player(c.actor, c.player_id, "start a session for another player")?;
        self.registered(c.player_id)?;
        let session_hash = required_hash("sessionHash", &c.session_hash)?;
        if self.sign_ins.session_hashes.contains(&session_hash)
            || self.sign_ins.live.contains(&c.session_id)
        {
            return Err(DomainError::conflict("this session has already started"));
        }
        match (c.method, &c.link_hash) {
            (SignInMethod::Link, Some(link)) => self.check_link(link, context.now)?,
            (SignInMethod::Link, None) => {
                return Err(DomainError::invalid("link", "a sign-in link is needed"));
            }
            (_, Some(_)) => {
                return Err(DomainError::invalid("link", "only a link sign-in uses a link"));
            }
            (_, None) => {}
        }
        Ok(vec![PlayerEvent::SessionStarted(SessionStarted {
            player_id: c.player_id,
            session_id: c.session_id,
            session_hash,
            method: c.method,
            device: device_label(&c.device),
            link_hash: c.link_hash.clone(),
        })])
    }

    /// A link is good once, until it expires. The refusal names no secret.
    fn check_link(&self, link_hash: &str, now: DateTime<Utc>) -> Result<(), DomainError> {
        match self.sign_ins.unused_links.get(link_hash) {
            Some(expires_at) if now < *expires_at => Ok(()),
            Some(_) => Err(DomainError::conflict("this sign-in link has expired")),
            None if self.sign_ins.issued_links.contains(link_hash) => {
                Err(DomainError::conflict("this sign-in link has already been used"))
            }
            None => Err(DomainError::invalid("link", "this is not a sign-in link of this player")),
        }
    }

    pub(super) fn renew_session(&self, c: &RenewSession) -> Result<Vec<PlayerEvent>, DomainError> {
        only_the_player(c.actor, c.player_id, "renew another player's session")?;
        self.registered(c.player_id)?;
        self.live_session(c.session_id)?;
        Ok(vec![PlayerEvent::SessionRenewed(SessionRenewed {
            player_id: c.player_id,
            session_id: c.session_id,
        })])
    }

    pub(super) fn end_session(&self, c: &EndSession) -> Result<Vec<PlayerEvent>, DomainError> {
        the_player_or_the_site_admin(c.actor, c.player_id, "sign another player out")?;
        self.registered(c.player_id)?;
        self.live_session(c.session_id)?;
        Ok(vec![PlayerEvent::SessionEnded(SessionEnded {
            player_id: c.player_id,
            session_id: c.session_id,
            ended_by: c.actor,
        })])
    }

    pub(super) fn end_all_sessions(
        &self,
        c: &EndAllSessions,
    ) -> Result<Vec<PlayerEvent>, DomainError> {
        the_player_or_the_site_admin(c.actor, c.player_id, "sign another player out")?;
        self.registered(c.player_id)?;
        if self.sign_ins.live.is_empty() {
            return Err(DomainError::conflict("no session of this player is signed in"));
        }
        Ok(vec![PlayerEvent::AllSessionsEnded(AllSessionsEnded {
            player_id: c.player_id,
            ended_by: c.actor,
        })])
    }

    /// The site admin and the player themself may issue a link for the player; an organiser
    /// for a player who takes part in a competition they organise, unless that player is an
    /// organiser too (a link is the player's every right, so it never lets one organiser act
    /// as another).
    pub(super) fn issue_sign_in_link(
        &self,
        c: &IssueSignInLink,
        context: &Context,
    ) -> Result<Vec<PlayerEvent>, DomainError> {
        let own = c.actor.player_id() == Some(c.player_id);
        if !c.actor.is_admin() && !own {
            if !context.actor_organises_player {
                return Err(DomainError::forbidden(
                    "only the site admin, the player, or an organiser of a competition the \
                     player takes part in may issue a sign-in link for them",
                ));
            }
            if self.organiser {
                return Err(DomainError::forbidden(
                    "only the site admin may issue a sign-in link for an organiser",
                ));
            }
        }
        self.registered(c.player_id)?;
        let link_hash = required_hash("linkHash", &c.link_hash)?;
        if self.sign_ins.issued_links.contains(&link_hash) {
            return Err(DomainError::conflict("this sign-in link has already been issued"));
        }
        if c.expires_at <= context.now {
            return Err(DomainError::invalid("expiresAt", "must be in the future"));
        }
        if c.expires_at > context.now + Duration::days(MAX_SIGN_IN_LINK_DAYS) {
            return Err(DomainError::invalid(
                "expiresAt",
                format!("must be at most {MAX_SIGN_IN_LINK_DAYS} days ahead"),
            ));
        }
        Ok(vec![PlayerEvent::SignInLinkIssued(SignInLinkIssued {
            player_id: c.player_id,
            link_hash,
            expires_at: c.expires_at,
            issued_by: c.actor,
        })])
    }

    fn live_session(&self, session_id: Uuid) -> Result<(), DomainError> {
        if self.sign_ins.live.contains(&session_id) {
            Ok(())
        } else {
            Err(DomainError::conflict(format!("session {session_id} is not signed in")))
        }
    }
}

fn only_the_player(actor: Actor, player: PlayerId, what: &str) -> Result<(), DomainError> {
    if actor.player_id() == Some(player) {
        Ok(())
    } else {
        Err(DomainError::forbidden(format!("no one may {what}")))
    }
}

fn the_player_or_the_site_admin(
    actor: Actor,
    player: PlayerId,
    what: &str,
) -> Result<(), DomainError> {
    if actor.is_admin() || actor.player_id() == Some(player) {
        Ok(())
    } else {
        Err(DomainError::forbidden(format!("only the site admin may {what}")))
    }
}

fn required_hash(field: &str, hash: &str) -> Result<String, DomainError> {
    let hash = hash.trim();
    if hash.is_empty() {
        return Err(DomainError::invalid(field, "must not be empty"));
    }
    Ok(hash.to_owned())
}

/// The device label as stored: one line, at most [`MAX_DEVICE_LABEL_LEN`] characters.
fn device_label(device: &str) -> String {
    let line: String = device.chars().filter(|c| !c.is_control()).collect();
    let label: String = line.trim().chars().take(MAX_DEVICE_LABEL_LEN).collect();
    if label.is_empty() { "a browser".to_owned() } else { label }
}

#[cfg(test)]
pub(crate) mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::aggregate::Aggregate;
    use crate::events::DomainEvent;
    use crate::fixtures::player;
    use crate::personal::PersonalText;
    use crate::player::commands::PlayerCommand;
    use crate::player::events::{OrganiserAppointed, PlayerErased, PlayerRegistered};

    const PLAYER: u128 = 50;
    const ORGANISER: u128 = 51;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 27, 12, 0, 0).unwrap()
    }

    fn registered() -> Vec<DomainEvent> {
        vec![DomainEvent::Player(PlayerEvent::PlayerRegistered(PlayerRegistered {
            player_id: player(PLAYER),
            name: PersonalText::Plain("Ada".into()),
            token_hash: "token".into(),
        }))]
    }

    fn when(
        events: &[DomainEvent],
        command: impl Into<PlayerCommand>,
        context: &Context,
    ) -> Result<Vec<DomainEvent>, DomainError> {
        Player::from_events(events).decide(&command.into(), context)
    }

    fn issue(actor: Actor, hash: &str, days: i64) -> IssueSignInLink {
        IssueSignInLink {
            actor,
            player_id: player(PLAYER),
            link_hash: hash.into(),
            expires_at: now() + Duration::days(days),
        }
    }

    fn start(n: u128, method: SignInMethod, link: Option<&str>) -> StartSession {
        StartSession {
            actor: Actor::Player(player(PLAYER)),
            player_id: player(PLAYER),
            session_id: Uuid::from_u128(n),
            session_hash: format!("session-{n}"),
            method,
            device: "Chrome on Android\n".into(),
            link_hash: link.map(str::to_owned),
        }
    }

    /// Registered, with link "L" issued by the admin for a week.
    fn with_link() -> Vec<DomainEvent> {
        let mut events = registered();
        let context = Context::new(now());
        events.extend(when(&events, issue(Actor::Admin, "L", 7), &context).unwrap());
        events
    }

    /// One event of each sign-in type (the stored-events sample).
    pub(crate) fn one_of_each_sign_in_event() -> Vec<DomainEvent> {
        let mut events = with_link();
        let context = Context::new(now());
        let player_id = player(PLAYER);
        let me = Actor::Player(player_id);
        let session_id = Uuid::from_u128(1);
        let commands: [PlayerCommand; 4] = [
            start(1, SignInMethod::Link, Some("L")).into(),
            RenewSession { actor: me, player_id, session_id }.into(),
            EndSession { actor: me, player_id, session_id }.into(),
            start(2, SignInMethod::Token, None).into(),
        ];
        for command in commands {
            events.extend(when(&events, command, &context).unwrap());
        }
        events.extend(when(&events, EndAllSessions { actor: me, player_id }, &context).unwrap());
        events.split_off(1)
    }

    fn code(result: Result<Vec<DomainEvent>, DomainError>) -> &'static str {
        result.unwrap_err().code().as_str()
    }

    #[test]
    fn a_link_starts_one_session_and_then_is_used_up() {
        let events = with_link();
        let context = Context::new(now() + Duration::days(1));
        let started = when(&events, start(1, SignInMethod::Link, Some("L")), &context).unwrap();
        let [DomainEvent::Player(PlayerEvent::SessionStarted(e))] = started.as_slice() else {
            panic!("{started:?}")
        };
        assert_eq!((e.method, e.device.as_str()), (SignInMethod::Link, "Chrome on Android"));
        let mut after = events.clone();
        after.extend(started);
        let again = when(&after, start(2, SignInMethod::Link, Some("L")), &context);
        assert_eq!(again.unwrap_err().to_string(), "this sign-in link has already been used");
    }

    #[test]
    fn an_expired_or_unknown_link_is_refused() {
        let events = with_link();
        let late = Context::new(now() + Duration::days(7));
        assert_eq!(code(when(&events, start(1, SignInMethod::Link, Some("L")), &late)), "CONFLICT");
        let soon = Context::new(now());
        let unknown = when(&events, start(1, SignInMethod::Link, Some("M")), &soon);
        assert_eq!(code(unknown), "BAD_USER_INPUT");
        assert_eq!(
            code(when(&events, start(1, SignInMethod::Link, None), &soon)),
            "BAD_USER_INPUT"
        );
    }

    #[test]
    fn only_the_player_starts_their_own_session() {
        let events = registered();
        let context = Context::new(now());
        let mut by_other = start(1, SignInMethod::Token, None);
        by_other.actor = Actor::Player(player(ORGANISER));
        assert_eq!(code(when(&events, by_other, &context)), "FORBIDDEN");
        let mut by_admin = start(1, SignInMethod::Token, None);
        by_admin.actor = Actor::Admin;
        assert_eq!(code(when(&events, by_admin, &context)), "FORBIDDEN");
        assert!(when(&events, start(1, SignInMethod::Passkey, None), &context).is_ok());
    }

    #[test]
    fn signing_out_everywhere_ends_every_session_and_unused_links() {
        let mut events = with_link();
        let context = Context::new(now());
        for n in 1..=2 {
            events.extend(when(&events, start(n, SignInMethod::Token, None), &context).unwrap());
        }
        events.extend(when(&events, issue(Actor::Admin, "M", 7), &context).unwrap());
        assert_eq!(Player::from_events(&events).live_sessions(), 2);
        let all =
            EndAllSessions { actor: Actor::Player(player(PLAYER)), player_id: player(PLAYER) };
        events.extend(when(&events, all.clone(), &context).unwrap());
        assert_eq!(Player::from_events(&events).live_sessions(), 0);
        let end = EndSession {
            actor: Actor::Admin,
            player_id: player(PLAYER),
            session_id: Uuid::from_u128(1),
        };
        assert_eq!(code(when(&events, end, &context)), "CONFLICT");
        assert_eq!(code(when(&events, all, &context)), "CONFLICT");
        assert_eq!(
            code(when(&events, start(3, SignInMethod::Link, Some("M")), &context)),
            "CONFLICT"
        );
    }

    #[test]
    fn another_player_may_not_sign_a_player_out_or_renew_their_session() {
        let mut events = registered();
        let context = Context::new(now());
        events.extend(when(&events, start(1, SignInMethod::Token, None), &context).unwrap());
        let other = Actor::Player(player(ORGANISER));
        let end =
            EndSession { actor: other, player_id: player(PLAYER), session_id: Uuid::from_u128(1) };
        assert_eq!(code(when(&events, end, &context)), "FORBIDDEN");
        let renew = RenewSession {
            actor: other,
            player_id: player(PLAYER),
            session_id: Uuid::from_u128(1),
        };
        assert_eq!(code(when(&events, renew.clone(), &context)), "FORBIDDEN");
        let own = RenewSession { actor: Actor::Player(player(PLAYER)), ..renew };
        assert!(when(&events, own, &context).is_ok());
    }

    #[test]
    fn an_organiser_issues_links_only_for_their_entrants_who_are_not_organisers() {
        let events = registered();
        let organiser = Actor::Player(player(ORGANISER));
        let outside = Context::new(now());
        assert_eq!(code(when(&events, issue(organiser, "L", 1), &outside)), "FORBIDDEN");
        let theirs = Context::new(now()).with_actor_organising_player(true);
        assert!(when(&events, issue(organiser, "L", 1), &theirs).is_ok());
        let mut appointed = events.clone();
        appointed.push(DomainEvent::Player(PlayerEvent::OrganiserAppointed(OrganiserAppointed {
            player_id: player(PLAYER),
            appointed_by: Actor::Admin,
        })));
        assert_eq!(code(when(&appointed, issue(organiser, "L", 1), &theirs)), "FORBIDDEN");
        let own = issue(Actor::Player(player(PLAYER)), "L", 1);
        assert!(when(&appointed, own, &outside).is_ok());
    }

    #[test]
    fn a_link_expires_within_the_limit_and_is_issued_once() {
        let events = with_link();
        let context = Context::new(now());
        let too_long = issue(Actor::Admin, "M", MAX_SIGN_IN_LINK_DAYS + 1);
        assert_eq!(code(when(&events, too_long, &context)), "BAD_USER_INPUT");
        assert_eq!(code(when(&events, issue(Actor::Admin, "M", 0), &context)), "BAD_USER_INPUT");
        assert_eq!(code(when(&events, issue(Actor::Admin, "L", 1), &context)), "CONFLICT");
    }

    #[test]
    fn an_erased_player_has_no_sessions_and_gets_no_links() {
        let mut events = with_link();
        let context = Context::new(now());
        events.extend(when(&events, start(1, SignInMethod::Token, None), &context).unwrap());
        events.push(DomainEvent::Player(PlayerEvent::PlayerErased(PlayerErased {
            player_id: player(PLAYER),
            erased_by: Actor::Admin,
            reason: "asked".into(),
        })));
        assert_eq!(Player::from_events(&events).live_sessions(), 0);
        assert_eq!(code(when(&events, issue(Actor::Admin, "M", 1), &context)), "CONFLICT");
        assert_eq!(code(when(&events, start(2, SignInMethod::Token, None), &context)), "CONFLICT");
    }
}
