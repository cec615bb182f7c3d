//! Sessions and sign-in links over GraphQL (`docs/sign-in.md`): a player's signed-in
//! devices (list, sign one out, sign out everywhere) and single-use sign-in links, one or a
//! tournament's whole sheet, each with its QR code. Signing in itself is `/auth/…`
//! ([`crate::session`]): it sets a cookie. A link's secret is only ever in this answer: the
//! log keeps its hash.

use std::time::Duration;

use async_graphql::{Context, Enum, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};
use league_app::CommandOptions;
use league_domain::{EndAllSessions, EndSession, authorise_personal_data};
use league_projections::SessionView;
use uuid::Uuid;

use crate::RequestId;
use crate::error::{GatewayError, GatewayResult};
use crate::feeds::RequestOrigin;
use crate::schema::context::{app, caller, execute, subject};
use crate::schema::inputs::parse_id;
use crate::schema::players::types::Player;
use crate::session::{CurrentSession, SessionConfig, issue_link};

/// How a person proved who they are when a session started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(remote = "league_domain::SignInMethod")]
pub enum SignInMethod {
    /// The player's bearer token.
    Token,
    /// A single-use sign-in link or its QR code.
    Link,
    /// A passkey.
    Passkey,
    /// An identity provider the site configured.
    Identity,
}

/// A signed-in browser of a player.
#[derive(SimpleObject)]
pub struct Session {
    id: ID,
    method: SignInMethod,
    /// A coarse label of the browser ("Chrome on Android").
    device: String,
    started_at: DateTime<Utc>,
    /// When it was started or last renewed.
    renewed_at: DateTime<Utc>,
    /// When it ends unless it is used (and so renewed) before.
    expires_at: DateTime<Utc>,
    /// Whether this request was signed in by it.
    current: bool,
}

impl Session {
    fn new(view: &SessionView, config: &SessionConfig, current: Option<Uuid>) -> Self {
        Session {
            id: ID(view.id.to_string()),
            method: view.method.into(),
            device: view.device.clone(),
            started_at: view.started_at,
            renewed_at: view.renewed_at,
            expires_at: view.renewed_at
                + chrono::Duration::from_std(config.lifetime).unwrap_or(chrono::Duration::MAX),
            current: current == Some(view.id),
        }
    }
}

/// A single-use sign-in link just issued: open it (or scan its QR code) on the device to sign
/// in. Shown only in this answer.
#[derive(SimpleObject)]
pub struct SignInLink {
    player: Player,
    url: String,
    /// The URL as a QR code, an SVG image.
    qr_svg: String,
    expires_at: DateTime<Utc>,
}

/// A tournament entrant who got no link, and why.
#[derive(SimpleObject)]
pub struct SkippedEntrant {
    player: Player,
    reason: String,
}

/// Sign-in links for a tournament's entrants (the printed sheet).
#[derive(SimpleObject)]
pub struct SignInSheet {
    links: Vec<SignInLink>,
    skipped: Vec<SkippedEntrant>,
}

fn sessions_config<'a>(ctx: &Context<'a>) -> &'a SessionConfig {
    ctx.data_unchecked::<SessionConfig>()
}

/// Session reads (merged into the query root).
#[derive(Debug, Default)]
pub struct SessionQuery;

#[Object]
impl SessionQuery {
    /// A player's signed-in browsers, oldest first: the caller's own (`playerId` omitted), or
    /// anyone's for the site admin.
    async fn sessions(
        &self,
        ctx: &Context<'_>,
        player_id: Option<ID>,
    ) -> GatewayResult<Vec<Session>> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player = subject(caller, player_id)?;
        authorise_personal_data(actor, player.into()).map_err(league_app::AppError::from)?;
        let current = ctx.data_opt::<CurrentSession>().map(|s| s.0);
        let config = sessions_config(ctx);
        let catalog = app(ctx).catalog();
        Ok(catalog
            .sign_ins()
            .sessions_of(player)
            .into_iter()
            .map(|view| Session::new(view, config, current))
            .collect())
    }
}

/// Session and sign-in link changes (merged into the mutation root).
#[derive(Debug, Default)]
pub struct SessionMutation;

#[Object]
impl SessionMutation {
    /// Signs one of a player's browsers out (the caller's own, or anyone's by the site
    /// admin). It is signed out on every gateway at once.
    async fn end_session(
        &self,
        ctx: &Context<'_>,
        session_id: ID,
        player_id: Option<ID>,
    ) -> GatewayResult<bool> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player = subject(caller, player_id)?;
        let session_id = parse_id(&session_id, "sessionId")?;
        execute(ctx, EndSession { actor, player_id: player.into(), session_id }, None).await?;
        Ok(true)
    }

    /// Signs every browser of a player out ("sign out everywhere"; the caller's own, or
    /// anyone's by the site admin), and voids their unused sign-in links.
    async fn end_all_sessions(
        &self,
        ctx: &Context<'_>,
        player_id: Option<ID>,
    ) -> GatewayResult<bool> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player = subject(caller, player_id)?;
        execute(ctx, EndAllSessions { actor, player_id: player.into() }, None).await?;
        Ok(true)
    }

    /// Issues a single-use sign-in link for a player: the caller's own (to sign in another
    /// of their devices), or, by the site admin or an organiser of a competition the player
    /// takes part in, anyone's but an organiser's. `returnTo` is the page of this site the
    /// link lands on; `validForHours` defaults to the site's setting.
    async fn issue_sign_in_link(
        &self,
        ctx: &Context<'_>,
        player_id: Option<ID>,
        return_to: Option<String>,
        valid_for_hours: Option<i32>,
    ) -> GatewayResult<SignInLink> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player = subject(caller, player_id)?;
        issue(ctx, actor, player, validity(ctx, valid_for_hours), return_to.as_deref()).await
    }

    /// Issues a sign-in link for every entrant of a tournament who has not withdrawn (its
    /// organisers and the site admin only), landing on the tournament's page: the printed
    /// sheet. Entrants no link may be issued for (organisers, erased players) are listed
    /// with the reason.
    async fn issue_sign_in_sheet(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        valid_for_hours: Option<i32>,
    ) -> GatewayResult<SignInSheet> {
        let actor = caller(ctx).actor()?;
        let tournament = parse_id(&tournament_id, "tournamentId")?;
        let app = app(ctx);
        let entrants = app.active_entrants(tournament, actor).await?;
        let valid_for = validity(ctx, valid_for_hours)?;
        let return_to = format!("/tournaments/{tournament}");
        let mut sheet = SignInSheet { links: Vec::new(), skipped: Vec::new() };
        for entrant in entrants {
            match issue(ctx, actor, entrant, Ok(valid_for), Some(&return_to)).await {
                Ok(link) => sheet.links.push(link),
                Err(error @ GatewayError::App(_)) if error.code() != "INTERNAL" => {
                    sheet.skipped.push(SkippedEntrant {
                        player: Player::new(app.clone(), entrant),
                        reason: error.message(),
                    });
                }
                Err(error) => return Err(error),
            }
        }
        Ok(sheet)
    }
}

/// How long a new link is valid: `hours` (1 to the domain's limit) or the site's setting.
fn validity(ctx: &Context<'_>, hours: Option<i32>) -> GatewayResult<Duration> {
    let most = league_domain::MAX_SIGN_IN_LINK_DAYS * 24;
    match hours {
        None => Ok(sessions_config(ctx).link_lifetime),
        Some(hours) if (1..=most).contains(&i64::from(hours)) => {
            Ok(Duration::from_secs(u64::try_from(hours).unwrap_or(1) * 3600))
        }
        Some(_) => {
            Err(GatewayError::bad_input("validForHours", format!("must be between 1 and {most}")))
        }
    }
}

async fn issue(
    ctx: &Context<'_>,
    actor: league_domain::Actor,
    player: Uuid,
    valid_for: GatewayResult<Duration>,
    return_to: Option<&str>,
) -> GatewayResult<SignInLink> {
    let app = app(ctx);
    // Links are issued over HTTP, which names the address they point to.
    let origin = ctx.data_opt::<RequestOrigin>().ok_or_else(|| {
        GatewayError::bad_input("transport", "sign-in links are issued over HTTP, not WebSocket")
    })?;
    let options = CommandOptions {
        idempotency_key: None,
        correlation_id: ctx.data_opt::<RequestId>().map(|id| id.0),
    };
    let issued = issue_link(app, options, actor, player, valid_for, origin, return_to).await?;
    Ok(SignInLink {
        player: Player::new(app.clone(), player),
        qr_svg: qr_svg(&issued.url)?,
        url: issued.url,
        expires_at: issued.expires_at,
    })
}

/// `text` as a QR code in SVG (medium error correction: a printed sheet may get creased).
fn qr_svg(text: &str) -> GatewayResult<String> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M)
        .map_err(|error| GatewayError::App(league_app::AppError::internal(error.to_string())))?;
    Ok(code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(160, 160)
        .quiet_zone(true)
        .build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_qr_code_is_an_svg_image() {
        let svg = qr_svg("http://localhost/signin/link#abc").unwrap();
        assert!(svg.starts_with("<?xml") || svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("<svg") && svg.contains("</svg>"));
    }
}
