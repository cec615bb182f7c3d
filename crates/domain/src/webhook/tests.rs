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
    Webhook::default().decide(&register(actor, competitions).into(), &context()).unwrap()[0].clone()
}

fn refusal(state: &Webhook, command: impl Into<WebhookCommand>, context: &Context) -> ErrorCode {
    state.decide(&command.into(), context).unwrap_err().code()
}

/// One event of each webhook type, in an order the aggregate accepts.
pub(crate) fn one_of_each_webhook_event() -> Vec<DomainEvent> {
    let mut events = vec![registered(organiser(), vec![LEAGUE])];
    let commands: [WebhookCommand; 3] = [
        PauseWebhook { actor: Actor::Admin, webhook_id: HOOK, reason: "HTTP 500".into() }.into(),
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
    assert_eq!(refusal(&state, register(organiser(), vec![]), &context()), ErrorCode::Forbidden);
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
    assert_eq!(refusal(&state, register(Actor::Admin, vec![]), &context()), ErrorCode::Conflict);
}

#[test]
fn the_worker_pauses_a_webhook_which_its_registrant_resumes_and_removes() {
    let mut events = vec![registered(organiser(), vec![LEAGUE])];
    let pause = PauseWebhook { actor: Actor::Admin, webhook_id: HOOK, reason: "HTTP 500".into() };
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
    // Results, corrections and the rulings that move standings (`docs/tournaments.md#rulings`).
    assert_eq!(standings.len(), 9);
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
