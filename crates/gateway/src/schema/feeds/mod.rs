//! The feeds in GraphQL (`docs/feeds.md`): issuing a player's secret calendar feed
//! (`rotateCalendarFeed`); whether one exists and a competition's export are fields of
//! other objects ([`fields`]).

pub(super) mod fields;

use async_graphql::{Context, ID, Object, SimpleObject};
use league_domain::RotateCalendarFeed;

use crate::error::GatewayResult;
use crate::feeds::{RequestOrigin, feed_hash, feed_path, new_feed_secret};
use crate::schema::context::{app, caller, execute, subject};
use crate::schema::players::types::Player;

/// The calendar feed mutation (merged into the mutation root).
#[derive(Debug, Default)]
pub struct FeedsMutation;

/// A player's new calendar feed, shown only this once.
#[derive(SimpleObject)]
pub struct CalendarFeed {
    pub player: Player,
    /// The feed's address for a calendar application (`…/calendar/<secret>.ics`).
    pub url: String,
    /// The same without the server's origin.
    pub path: String,
}

#[Object]
impl FeedsMutation {
    /// Issues a player's secret calendar feed, or replaces it: their own (`playerId` omitted
    /// or their own), or anyone's by the site admin. Answers with the feed's URL, shown only
    /// this once (only its hash is stored); the previous URL stops working at once.
    async fn rotate_calendar_feed(
        &self,
        ctx: &Context<'_>,
        player_id: Option<ID>,
    ) -> GatewayResult<CalendarFeed> {
        let caller = caller(ctx);
        let actor = caller.actor()?;
        let player_id = subject(caller, player_id)?;
        let secret = new_feed_secret(player_id);
        let command = RotateCalendarFeed {
            actor,
            player_id: player_id.into(),
            feed_hash: feed_hash(&secret),
        };
        execute(ctx, command, None).await?;
        let path = feed_path(&secret);
        let origin = ctx.data_opt::<RequestOrigin>().cloned();
        let url = origin.map_or_else(|| path.clone(), |origin| origin.url(&path));
        Ok(CalendarFeed { player: Player::new(app(ctx).clone(), player_id), url, path })
    }
}
