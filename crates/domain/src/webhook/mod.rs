//! The `Webhook` aggregate (stream `webhook-<uuid>`): an outbound feed of the log to a URL
//! (`docs/webhooks.md`). Registering, pausing, resuming and removing a webhook are events;
//! what it was sent, its URL and its secret are not (they live beside the log, in the store's
//! own tables: a URL such as a Discord webhook's lets whoever reads it post to the channel).
//! Which events a webhook wants is pure: [`WebhookKind::of_type`]. Events of an older log
//! that still quote a URL are shown redacted ([`redacted_payload`]).
//!
//! Rights: an organiser registers webhooks for the competitions they organise; a site-wide
//! webhook (no competition list) only the site admin. A webhook is managed (paused, resumed,
//! removed) by the site admin, by whoever registered it, or by an organiser of every
//! competition it covers.

pub(crate) mod commands;
pub(crate) mod events;

pub use self::commands::*;
pub use self::events::*;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::aggregate::Aggregate;
use crate::context::Context;
use crate::error::DomainError;
use crate::events::EventType;
use crate::ids::{Actor, WebhookId};
use crate::rules::clean_reason;

/// Longest accepted webhook URL.
pub const MAX_WEBHOOK_URL_CHARS: usize = 2000;
/// Most competitions one webhook covers.
pub const MAX_WEBHOOK_COMPETITIONS: usize = 100;

impl WebhookKind {
    /// Every kind, in declaration order.
    pub const ALL: &'static [WebhookKind] = <WebhookKind as strum::VariantArray>::VARIANTS;

    /// The kinds an event of type `event_type` belongs to (none for most types): as its
    /// room's list of event types says (`notify [...]`).
    pub const fn of_type(event_type: EventType) -> &'static [WebhookKind] {
        event_type.webhook_kinds()
    }

    /// The event types that belong to this kind.
    pub fn event_types(self) -> impl Iterator<Item = EventType> {
        EventType::ALL.iter().copied().filter(move |t| WebhookKind::of_type(*t).contains(&self))
    }
}

/// Where a webhook is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum WebhookStatus {
    /// Delivering.
    Active,
    /// Stopped (by the delivery worker after failing too long, or by a manager) until resumed.
    Paused,
    /// Gone for good.
    Removed,
}

/// A webhook's state, folded from its stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Webhook {
    version: u64,
    registered: Option<WebhookRegistered>,
    status: Option<WebhookStatus>,
    paused_reason: Option<String>,
}

impl Webhook {
    /// The registration, once registered.
    pub fn registration(&self) -> Option<&WebhookRegistered> {
        self.registered.as_ref()
    }

    /// The competitions it covers (empty: site-wide, or not registered).
    pub fn competitions(&self) -> &[Uuid] {
        self.registered.as_ref().map_or(&[], |r| r.competitions.as_slice())
    }

    /// Where it is (`None` before registration).
    pub fn status(&self) -> Option<WebhookStatus> {
        self.status
    }

    /// Why it is paused, while paused.
    pub fn paused_reason(&self) -> Option<&str> {
        self.paused_reason.as_deref()
    }

    fn register(
        &self,
        c: &RegisterWebhook,
        context: &Context,
    ) -> Result<Vec<WebhookEvent>, DomainError> {
        if self.registered.is_some() {
            return Err(DomainError::conflict(format!("webhook {} already exists", c.webhook_id)));
        }
        // Rights first: a caller who may not register learns nothing about their input.
        match c.actor {
            Actor::Admin => {}
            Actor::Player(player) if c.competitions.is_empty() => {
                return Err(DomainError::forbidden(format!(
                    "player {player} may not register a site-wide webhook: only the site admin \
                     may (name the competitions it covers)"
                )));
            }
            Actor::Player(player) => {
                if let Some(competition) = context.unmanaged_competitions.first() {
                    return Err(DomainError::forbidden(format!(
                        "player {player} does not organise competition {competition}: only its \
                         organisers or the site admin may register webhooks for it"
                    )));
                }
            }
        }
        let url = check_url(&c.url)?;
        let mut kinds = c.kinds.clone();
        kinds.sort();
        kinds.dedup();
        if kinds.is_empty() {
            return Err(DomainError::invalid("kinds", "name at least one kind of event"));
        }
        let mut competitions = Vec::with_capacity(c.competitions.len());
        for competition in &c.competitions {
            if !competitions.contains(competition) {
                competitions.push(*competition);
            }
        }
        if competitions.len() > MAX_WEBHOOK_COMPETITIONS {
            return Err(DomainError::invalid(
                "competitions",
                format!("at most {MAX_WEBHOOK_COMPETITIONS} competitions per webhook"),
            ));
        }
        if let Some(unknown) = context.unknown_competitions.first() {
            return Err(DomainError::invalid(
                "competitions",
                format!("no league or tournament has id {unknown}"),
            ));
        }
        Ok(vec![WebhookEvent::WebhookRegistered(WebhookRegistered {
            webhook_id: c.webhook_id,
            host: url_host(&url),
            url: None,
            kinds,
            competitions,
            format: c.format,
            registered_by: c.actor,
        })])
    }

    /// The webhook as it stands, refusing an unknown or removed one and an actor who may not
    /// manage it (`right` names what they tried).
    fn manageable(
        &self,
        webhook_id: WebhookId,
        actor: Actor,
        context: &Context,
        right: &str,
    ) -> Result<WebhookStatus, DomainError> {
        let (Some(registered), Some(status)) = (&self.registered, self.status) else {
            return Err(DomainError::WebhookNotFound(webhook_id));
        };
        let organises_all =
            !registered.competitions.is_empty() && context.unmanaged_competitions.is_empty();
        let may = actor.is_admin() || actor == registered.registered_by || organises_all;
        if !may {
            return Err(DomainError::forbidden(format!(
                "{actor} may not {right} webhook {webhook_id}: only the site admin, whoever \
                 registered it or an organiser of every competition it covers may"
            )));
        }
        if status == WebhookStatus::Removed {
            return Err(DomainError::conflict(format!("webhook {webhook_id} was removed")));
        }
        Ok(status)
    }

    fn pause(&self, c: &PauseWebhook, context: &Context) -> Result<Vec<WebhookEvent>, DomainError> {
        let status = self.manageable(c.webhook_id, c.actor, context, "pause")?;
        if status == WebhookStatus::Paused {
            return Err(DomainError::conflict(format!(
                "webhook {} is already paused",
                c.webhook_id
            )));
        }
        Ok(vec![WebhookEvent::WebhookPaused(WebhookPaused {
            webhook_id: c.webhook_id,
            reason: redact_urls(&clean_reason(&c.reason)?),
            paused_by: c.actor,
        })])
    }

    fn resume(
        &self,
        c: &ResumeWebhook,
        context: &Context,
    ) -> Result<Vec<WebhookEvent>, DomainError> {
        let status = self.manageable(c.webhook_id, c.actor, context, "resume")?;
        if status != WebhookStatus::Paused {
            return Err(DomainError::conflict(format!("webhook {} is not paused", c.webhook_id)));
        }
        Ok(vec![WebhookEvent::WebhookResumed(WebhookResumed {
            webhook_id: c.webhook_id,
            resumed_by: c.actor,
        })])
    }

    fn remove(
        &self,
        c: &RemoveWebhook,
        context: &Context,
    ) -> Result<Vec<WebhookEvent>, DomainError> {
        self.manageable(c.webhook_id, c.actor, context, "remove")?;
        Ok(vec![WebhookEvent::WebhookRemoved(WebhookRemoved {
            webhook_id: c.webhook_id,
            removed_by: c.actor,
        })])
    }
}

/// The URL's form (the addresses it may reach are the delivery side's check): `http` or
/// `https`, with a host, without credentials, at most [`MAX_WEBHOOK_URL_CHARS`]. Returns the
/// URL as given, trimmed.
pub fn check_url(url: &str) -> Result<String, DomainError> {
    let url = url.trim();
    let invalid = |message: &str| DomainError::invalid("url", message);
    if url.chars().count() > MAX_WEBHOOK_URL_CHARS {
        return Err(invalid(&format!("at most {MAX_WEBHOOK_URL_CHARS} characters")));
    }
    let parsed = url::Url::parse(url).map_err(|error| invalid(&format!("not a URL: {error}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(invalid("must be an http or https URL"));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(invalid("must name a host"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(invalid("must not hold credentials (user or password)"));
    }
    Ok(url.to_owned())
}

/// `text` with every `http://` or `https://` URL in it replaced by its host (an error message
/// or pause reason may quote the URL it failed on).
pub fn redact_urls(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut redacted = String::with_capacity(text.len());
    let mut rest = 0;
    while let Some(found) = ["http://", "https://"]
        .iter()
        .filter_map(|scheme| lower[rest..].find(scheme).map(|at| rest + at))
        .min()
    {
        // Up to the next blank or quote, less the punctuation a sentence puts after it.
        let end = text[found..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>'))
            .map_or(text.len(), |length| found + length);
        let end =
            found + text[found..end].trim_end_matches([')', ',', '.', ';', ':', '!', '?']).len();
        redacted.push_str(&text[rest..found]);
        redacted.push_str(&url_host(&text[found..end]));
        rest = end;
    }
    redacted.push_str(&text[rest..]);
    redacted
}

/// The payload of a stored event as the public views show it (`Event.payload` in the `events`
/// query and the `leagueEvents` subscription): a version 1 `WebhookRegistered` with its `url` replaced by its
/// `host`, and a `WebhookPaused` reason without URLs (`docs/webhooks.md#older-logs`). `None`
/// when the payload is shown as stored. The stored bytes, their hash and `league verify` are
/// untouched: this is a view.
pub fn redacted_payload(
    event_type: &str,
    payload: &serde_json::Value,
) -> Option<serde_json::Value> {
    let registered = EventType::WebhookRegistered.as_str();
    let paused = EventType::WebhookPaused.as_str();
    if event_type == registered {
        let url = payload.get("url")?.as_str()?;
        let mut shown = payload.clone();
        let fields = shown.as_object_mut()?;
        let host = url_host(url);
        fields.remove("url");
        fields.entry("host").or_insert(serde_json::Value::String(host));
        Some(shown)
    } else if event_type == paused {
        let reason = payload.get("reason")?.as_str()?;
        let clean = redact_urls(reason);
        if clean == reason {
            return None;
        }
        let mut shown = payload.clone();
        shown.as_object_mut()?.insert("reason".into(), serde_json::Value::String(clean));
        Some(shown)
    } else {
        None
    }
}

impl Aggregate for Webhook {
    type Command = WebhookCommand;
    type Event = WebhookEvent;

    fn handle(
        &self,
        command: &WebhookCommand,
        context: &Context,
    ) -> Result<Vec<WebhookEvent>, DomainError> {
        match command {
            WebhookCommand::Register(c) => self.register(c, context),
            WebhookCommand::Pause(c) => self.pause(c, context),
            WebhookCommand::Resume(c) => self.resume(c, context),
            WebhookCommand::Remove(c) => self.remove(c, context),
        }
    }

    fn apply(&mut self, event: &WebhookEvent) {
        self.version += 1;
        match event {
            WebhookEvent::WebhookRegistered(e) => {
                self.registered = Some(e.clone());
                self.status = Some(WebhookStatus::Active);
            }
            WebhookEvent::WebhookPaused(e) => {
                self.status = Some(WebhookStatus::Paused);
                self.paused_reason = Some(e.reason.clone());
            }
            WebhookEvent::WebhookResumed(_) => {
                self.status = Some(WebhookStatus::Active);
                self.paused_reason = None;
            }
            WebhookEvent::WebhookRemoved(_) => {
                self.status = Some(WebhookStatus::Removed);
                self.paused_reason = None;
            }
        }
    }

    fn version(&self) -> u64 {
        self.version
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! Given events / when command / then events or error, for every webhook rule.

    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::ErrorCode;
    use crate::events::DomainEvent;

    pub(crate) const HOOK: WebhookId =
        WebhookId::new(Uuid::from_u128(0x0193_4f00_0000_7000_8000_0000_0000_0b00));
    const LEAGUE: Uuid = Uuid::from_u128(0x0193_4f00_0000_7000_8000_0000_0000_00aa);
    const OTHER: Uuid = Uuid::from_u128(0x0193_4f00_0000_7000_8000_0000_0000_00bb);

    fn organiser() -> Actor {
        Actor::Player(Uuid::from_u128(1).into())
    }

    fn context() -> Context {
        Context::new(Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap())
    }

    fn given(events: &[DomainEvent]) -> Webhook {
        Webhook::from_events(events)
    }

    fn register(actor: Actor, competitions: Vec<Uuid>) -> RegisterWebhook {
        RegisterWebhook {
            actor,
            webhook_id: HOOK,
            url: " https://discord.com/api/webhooks/1/abc ".into(),
            kinds: vec![WebhookKind::StandingsChanged, WebhookKind::ResultReported],
            competitions,
            format: WebhookFormat::Discord,
        }
    }

    fn registered(actor: Actor, competitions: Vec<Uuid>) -> DomainEvent {
        Webhook::default().decide(&register(actor, competitions).into(), &context()).unwrap()[0]
            .clone()
    }

    fn refusal(
        state: &Webhook,
        command: impl Into<WebhookCommand>,
        context: &Context,
    ) -> ErrorCode {
        state.decide(&command.into(), context).unwrap_err().code()
    }

    /// One event of each webhook type, in an order the aggregate accepts.
    pub(crate) fn one_of_each_webhook_event() -> Vec<DomainEvent> {
        let mut events = vec![registered(organiser(), vec![LEAGUE])];
        let commands: [WebhookCommand; 3] = [
            PauseWebhook { actor: Actor::Admin, webhook_id: HOOK, reason: "HTTP 500".into() }
                .into(),
            ResumeWebhook { actor: organiser(), webhook_id: HOOK }.into(),
            RemoveWebhook { actor: organiser(), webhook_id: HOOK }.into(),
        ];
        for command in commands {
            events.extend(given(&events).decide(&command, &context()).unwrap());
        }
        events
    }

    #[test]
    fn an_organiser_registers_a_webhook_for_their_league_with_kinds_sorted() {
        let events = given(&[]).decide(&register(organiser(), vec![LEAGUE]).into(), &context());
        assert_eq!(
            events.unwrap(),
            vec![DomainEvent::from(WebhookRegistered {
                webhook_id: HOOK,
                host: "discord.com".into(),
                url: None,
                kinds: vec![WebhookKind::ResultReported, WebhookKind::StandingsChanged],
                competitions: vec![LEAGUE],
                format: WebhookFormat::Discord,
                registered_by: organiser(),
            })]
        );
    }

    #[test]
    fn only_the_site_admin_registers_site_wide_or_for_competitions_it_does_not_organise() {
        let state = given(&[]);
        assert_eq!(
            refusal(&state, register(organiser(), vec![]), &context()),
            ErrorCode::Forbidden
        );
        let unmanaged = Context { unmanaged_competitions: vec![OTHER], ..context() };
        assert_eq!(
            refusal(&state, register(organiser(), vec![LEAGUE, OTHER]), &unmanaged),
            ErrorCode::Forbidden
        );
        assert!(state.decide(&register(Actor::Admin, vec![]).into(), &context()).is_ok());
        assert!(state.decide(&register(Actor::Admin, vec![OTHER]).into(), &unmanaged).is_ok());
        let unknown = Context { unknown_competitions: vec![OTHER], ..context() };
        assert_eq!(
            refusal(&state, register(Actor::Admin, vec![OTHER]), &unknown),
            ErrorCode::BadUserInput { field: "competitions".into() }
        );
    }

    #[test]
    fn bad_urls_and_empty_kinds_are_refused_naming_the_field() {
        let url = ErrorCode::BadUserInput { field: "url".into() };
        for bad in [
            "ftp://example.com/hook",
            "not a url",
            "https://user:pw@example.com/hook",
            "https://user@example.com/hook",
            "file:///etc/passwd",
            &format!("https://example.com/{}", "a".repeat(MAX_WEBHOOK_URL_CHARS)),
        ] {
            let command = RegisterWebhook { url: bad.into(), ..register(Actor::Admin, vec![]) };
            assert_eq!(refusal(&given(&[]), command, &context()), url, "{bad}");
        }
        let command = RegisterWebhook { kinds: vec![], ..register(Actor::Admin, vec![]) };
        assert_eq!(
            refusal(&given(&[]), command, &context()),
            ErrorCode::BadUserInput { field: "kinds".into() }
        );
    }

    #[test]
    fn registering_twice_is_a_conflict() {
        let state = given(&[registered(Actor::Admin, vec![])]);
        assert_eq!(
            refusal(&state, register(Actor::Admin, vec![]), &context()),
            ErrorCode::Conflict
        );
    }

    #[test]
    fn the_worker_pauses_a_webhook_which_its_registrant_resumes_and_removes() {
        let mut events = vec![registered(organiser(), vec![LEAGUE])];
        let pause =
            PauseWebhook { actor: Actor::Admin, webhook_id: HOOK, reason: "HTTP 500".into() };
        events.extend(given(&events).decide(&pause.clone().into(), &context()).unwrap());
        let state = given(&events);
        assert_eq!(state.status(), Some(WebhookStatus::Paused));
        assert_eq!(state.paused_reason(), Some("HTTP 500"));
        assert_eq!(refusal(&state, pause, &context()), ErrorCode::Conflict);
        let resume = ResumeWebhook { actor: organiser(), webhook_id: HOOK };
        events.extend(state.decide(&resume.clone().into(), &context()).unwrap());
        assert_eq!(given(&events).status(), Some(WebhookStatus::Active));
        assert_eq!(refusal(&given(&events), resume, &context()), ErrorCode::Conflict);
        let remove = RemoveWebhook { actor: organiser(), webhook_id: HOOK };
        events.extend(given(&events).decide(&remove.clone().into(), &context()).unwrap());
        assert_eq!(given(&events).status(), Some(WebhookStatus::Removed));
        assert_eq!(refusal(&given(&events), remove, &context()), ErrorCode::Conflict);
    }

    #[test]
    fn another_player_manages_a_webhook_only_as_organiser_of_all_its_competitions() {
        let state = given(&[registered(organiser(), vec![LEAGUE])]);
        let stranger = Actor::Player(Uuid::from_u128(2).into());
        let remove = RemoveWebhook { actor: stranger, webhook_id: HOOK };
        let unmanaged = Context { unmanaged_competitions: vec![LEAGUE], ..context() };
        assert_eq!(refusal(&state, remove.clone(), &unmanaged), ErrorCode::Forbidden);
        assert!(state.decide(&remove.into(), &context()).is_ok());
        let site_wide = given(&[registered(Actor::Admin, vec![])]);
        let remove = RemoveWebhook { actor: organiser(), webhook_id: HOOK };
        assert_eq!(refusal(&site_wide, remove, &context()), ErrorCode::Forbidden);
    }

    #[test]
    fn commands_on_an_unknown_webhook_are_not_found() {
        let remove = RemoveWebhook { actor: Actor::Admin, webhook_id: HOOK };
        assert_eq!(refusal(&given(&[]), remove, &context()), ErrorCode::NotFound);
    }

    #[test]
    fn kinds_map_event_types_both_ways() {
        assert_eq!(
            WebhookKind::of_type(EventType::BoardResultCorrected),
            &[WebhookKind::ResultCorrected, WebhookKind::StandingsChanged]
        );
        assert!(WebhookKind::of_type(EventType::WebhookRegistered).is_empty());
        let standings: Vec<_> = WebhookKind::StandingsChanged.event_types().collect();
        assert_eq!(standings.len(), 4);
        for kind in WebhookKind::ALL {
            assert!(kind.event_types().next().is_some(), "{kind:?} matches no event type");
        }
    }

    #[test]
    fn stream_ids_round_trip_and_payloads_are_camel_case() {
        assert_eq!(crate::webhook_id_of_stream(&crate::webhook_stream_id(HOOK)), Some(HOOK));
        assert_eq!(crate::webhook_id_of_stream("league-x"), None);
        let payload = registered(Actor::Admin, vec![LEAGUE]).payload();
        assert_eq!(payload["kinds"], serde_json::json!(["RESULT_REPORTED", "STANDINGS_CHANGED"]));
        assert_eq!(payload["format"], "DISCORD");
        assert_eq!(payload["registeredBy"], "admin");
    }

    #[test]
    fn a_registration_keeps_the_host_and_never_the_url() {
        let payload = registered(Actor::Admin, vec![LEAGUE]).payload();
        assert_eq!(payload["host"], "discord.com");
        assert!(payload.get("url").is_none());
        assert!(!payload.to_string().contains("/api/webhooks/1/abc"), "{payload}");
    }

    #[test]
    fn a_pause_reason_names_hosts_not_urls() {
        let state = given(&[registered(organiser(), vec![LEAGUE])]);
        let reason = "last error: error sending request for url \
                      (https://hooks.example.org/api/webhooks/9/s3cret?x=1): timed out";
        let pause = PauseWebhook { actor: Actor::Admin, webhook_id: HOOK, reason: reason.into() };
        let events = state.decide(&pause.into(), &context()).unwrap();
        let DomainEvent::Webhook(WebhookEvent::WebhookPaused(paused)) = &events[0] else {
            panic!("{events:?}")
        };
        assert_eq!(
            paused.reason,
            "last error: error sending request for url (hooks.example.org): timed out"
        );
    }

    #[test]
    fn older_payloads_are_shown_with_the_host_in_place_of_the_url() {
        let old = serde_json::json!({
            "webhookId": HOOK, "url": "https://discord.com/api/webhooks/1/abc",
            "kinds": ["RESULT_REPORTED"], "competitions": [], "format": "DISCORD",
            "registeredBy": "admin",
        });
        let decoded = DomainEvent::decode("WebhookRegistered", 1, &old).unwrap();
        let DomainEvent::Webhook(WebhookEvent::WebhookRegistered(decoded)) = decoded else {
            panic!("{decoded:?}")
        };
        assert_eq!(decoded.host, "discord.com", "a version 1 event gets its host");
        assert_eq!(decoded.url.as_deref(), Some("https://discord.com/api/webhooks/1/abc"));
        let shown = redacted_payload("WebhookRegistered", &old).unwrap();
        assert_eq!(shown["host"], "discord.com");
        assert!(!shown.to_string().contains("abc"), "{shown}");
        assert_eq!(shown["kinds"], old["kinds"]);
        let new = registered(Actor::Admin, vec![]).payload();
        assert_eq!(redacted_payload("WebhookRegistered", &new), None);
        let paused = serde_json::json!({
            "webhookId": HOOK, "reason": "HTTP 500 from http://10.0.0.1:8080/hook/s3cret",
            "pausedBy": "admin",
        });
        let shown = redacted_payload("WebhookPaused", &paused).unwrap();
        assert_eq!(shown["reason"], "HTTP 500 from 10.0.0.1");
        assert_eq!(redacted_payload("WebhookPaused", &shown), None);
        assert_eq!(redacted_payload("GameFinished", &old), None);
    }
}
