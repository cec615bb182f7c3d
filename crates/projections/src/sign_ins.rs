//! [`SignIns`]: the sessions that are signed in and the sign-in links not used yet, by the
//! SHA-256 of their secrets, folded from the players' streams (`docs/sign-in.md`). Every
//! gateway folds the same events from the live feed, so a session ended or a link used on
//! one gateway stops working on all of them at once. An erased player's sessions and links
//! are forgotten with them.

use chrono::{DateTime, Utc};
use league_domain::{PlayerEvent, SignInMethod};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use uuid::Uuid;

use crate::decode::EventMeta;

/// A signed-in session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    pub id: Uuid,
    pub player: Uuid,
    pub method: SignInMethod,
    /// A coarse label of the browser ("Chrome on Android").
    pub device: String,
    pub started_at: DateTime<Utc>,
    /// When it was started or last renewed: it lasts the configured lifetime from here.
    pub renewed_at: DateTime<Utc>,
}

/// A sign-in link not used yet.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LinkView {
    pub player: Uuid,
    pub expires_at: DateTime<Utc>,
}

/// Sessions and unused links. Hashes come from outside: keep SipHash for those maps.
#[derive(Debug, Clone, Default)]
pub struct SignIns {
    sessions: std::collections::HashMap<String, SessionView>,
    /// Session id → its hash.
    by_id: HashMap<Uuid, String>,
    /// Player → their sessions' hashes.
    by_player: HashMap<Uuid, HashSet<String>>,
    links: std::collections::HashMap<String, LinkView>,
    /// The links by expiry, soonest first, so those that expired unused are forgotten as the
    /// log's clock passes them (entries of links used or voided since are skipped then).
    links_by_expiry: BTreeSet<(DateTime<Utc>, String)>,
}

impl SignIns {
    /// Folds a player event; events about anything else leave it unchanged.
    pub(crate) fn apply(&mut self, meta: EventMeta, event: &PlayerEvent) {
        // The event's recording time, not the wall clock, so every gateway and every replay
        // forgets the same links at the same position.
        self.forget_expired_links(meta.recorded_at);
        match event {
            PlayerEvent::SessionStarted(e) => {
                if let Some(link) = &e.link_hash {
                    self.links.remove(link);
                }
                self.insert(
                    e.session_hash.clone(),
                    SessionView {
                        id: e.session_id,
                        player: e.player_id.into(),
                        method: e.method,
                        device: e.device.clone(),
                        started_at: meta.recorded_at,
                        renewed_at: meta.recorded_at,
                    },
                );
            }
            PlayerEvent::SessionRenewed(e) => {
                if let Some(session) =
                    self.by_id.get(&e.session_id).and_then(|hash| self.sessions.get_mut(hash))
                {
                    session.renewed_at = meta.recorded_at;
                }
            }
            PlayerEvent::SessionEnded(e) => self.end(e.session_id),
            PlayerEvent::AllSessionsEnded(e) => self.forget(e.player_id.into()),
            PlayerEvent::PlayerErased(e) => self.forget(e.player_id.into()),
            PlayerEvent::SignInLinkIssued(e) => {
                let link = LinkView { player: e.player_id.into(), expires_at: e.expires_at };
                self.insert_link(e.link_hash.clone(), link);
            }
            PlayerEvent::PlayerRegistered(_)
            | PlayerEvent::TokenRotated(_)
            | PlayerEvent::TokenRevoked(_)
            | PlayerEvent::OrganiserAppointed(_)
            | PlayerEvent::OrganiserDismissed(_)
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

    fn insert_link(&mut self, hash: String, link: LinkView) {
        self.links_by_expiry.insert((link.expires_at, hash.clone()));
        self.links.insert(hash, link);
    }

    /// Forgets the links that expired before `now`.
    fn forget_expired_links(&mut self, now: DateTime<Utc>) {
        while let Some((expires_at, _)) = self.links_by_expiry.first()
            && *expires_at < now
        {
            let Some((expires_at, hash)) = self.links_by_expiry.pop_first() else { break };
            if self.links.get(&hash).is_some_and(|link| link.expires_at == expires_at) {
                self.links.remove(&hash);
            }
        }
    }

    fn insert(&mut self, hash: String, session: SessionView) {
        self.by_id.insert(session.id, hash.clone());
        self.by_player.entry(session.player).or_default().insert(hash.clone());
        self.sessions.insert(hash, session);
    }

    fn end(&mut self, id: Uuid) {
        let Some(hash) = self.by_id.remove(&id) else { return };
        if let Some(session) = self.sessions.remove(&hash)
            && let Some(hashes) = self.by_player.get_mut(&session.player)
        {
            hashes.remove(&hash);
        }
    }

    /// Ends every session of `player` and forgets their unused links (signing out
    /// everywhere, or an erasure).
    fn forget(&mut self, player: Uuid) {
        for hash in self.by_player.remove(&player).unwrap_or_default() {
            if let Some(session) = self.sessions.remove(&hash) {
                self.by_id.remove(&session.id);
            }
        }
        self.links.retain(|_, link| link.player != player);
    }

    /// The session whose secret hashes to `hash`, if it is signed in (its expiry is the
    /// gateway's to check: the lifetime is configuration).
    pub fn session(&self, hash: &str) -> Option<&SessionView> {
        self.sessions.get(hash)
    }

    /// The player's signed-in sessions, oldest first.
    pub fn sessions_of(&self, player: Uuid) -> Vec<&SessionView> {
        let mut sessions: Vec<&SessionView> = self
            .by_player
            .get(&player)
            .into_iter()
            .flatten()
            .filter_map(|hash| self.sessions.get(hash))
            .collect();
        sessions.sort_by_key(|session| (session.started_at, session.id));
        sessions
    }

    /// The unused sign-in link whose secret hashes to `hash` (one expired since the latest
    /// player event included: the domain says why it is refused).
    pub fn link(&self, hash: &str) -> Option<LinkView> {
        self.links.get(hash).copied()
    }

    pub(crate) fn image(&self) -> SignInsImage {
        let mut sessions: Vec<(String, SessionView)> =
            self.sessions.iter().map(|(hash, s)| (hash.clone(), s.clone())).collect();
        sessions.sort_by(|a, b| a.0.cmp(&b.0));
        let mut links: Vec<(String, LinkView)> =
            self.links.iter().map(|(hash, link)| (hash.clone(), *link)).collect();
        links.sort_by(|a, b| a.0.cmp(&b.0));
        SignInsImage { sessions, links }
    }

    pub(crate) fn from_image(image: SignInsImage) -> SignIns {
        let mut sign_ins = SignIns::default();
        for (hash, session) in image.sessions {
            sign_ins.insert(hash, session);
        }
        for (hash, link) in image.links {
            sign_ins.insert_link(hash, link);
        }
        sign_ins
    }
}

/// [`SignIns`] as a snapshot keeps it, sorted by hash.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct SignInsImage {
    sessions: Vec<(String, SessionView)>,
    links: Vec<(String, LinkView)>,
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use league_domain::{Actor, PlayerId, SessionEnded, SignInLinkIssued};

    use super::*;

    fn at(hour: u32) -> EventMeta {
        let recorded_at = Utc.with_ymd_and_hms(2026, 11, 27, hour, 0, 0).single().unwrap();
        EventMeta { position: u64::from(hour), stream_version: 0, recorded_at }
    }

    fn issued(player: PlayerId, hash: &str, expires_hour: u32) -> PlayerEvent {
        PlayerEvent::SignInLinkIssued(SignInLinkIssued {
            player_id: player,
            link_hash: hash.to_owned(),
            expires_at: at(expires_hour).recorded_at,
            issued_by: Actor::Admin,
        })
    }

    #[test]
    fn links_that_expired_unused_are_forgotten_when_the_log_passes_their_expiry() {
        let player = PlayerId::from(Uuid::now_v7());
        let mut sign_ins = SignIns::default();
        sign_ins.apply(at(1), &issued(player, "soon", 3));
        sign_ins.apply(at(2), &issued(player, "later", 9));
        assert!(sign_ins.link("soon").is_some(), "not expired yet");

        // Any later player event moves the log's clock past the first expiry.
        let other = PlayerEvent::SessionEnded(SessionEnded {
            player_id: player,
            session_id: Uuid::now_v7(),
            ended_by: Actor::Admin,
        });
        sign_ins.apply(at(4), &other);
        assert_eq!(sign_ins.link("soon"), None);
        assert!(sign_ins.link("later").is_some());

        // A snapshot keeps only the live link and goes on forgetting after it is read back.
        let mut restored = SignIns::from_image(sign_ins.image());
        assert_eq!(restored.image(), sign_ins.image());
        restored.apply(at(10), &other);
        assert_eq!(restored.link("later"), None);
    }
}
