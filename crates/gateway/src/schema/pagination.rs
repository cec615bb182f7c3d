//! Relay connections and list sizes: `first` (1..=100, default 20) and an opaque `after`
//! cursor, the totals every connection carries, a page of a list of ids, and the
//! complexity of a connection field or of a list bounded by a league's size.

use async_graphql::SimpleObject;
use async_graphql::connection::{Connection, Edge};

use crate::error::{GatewayError, GatewayResult};

/// Largest page any connection serves (`first` above it is `BAD_USER_INPUT`).
pub const MAX_PAGE_SIZE: usize = 100;
/// Page size when `first` is omitted.
pub const DEFAULT_PAGE_SIZE: usize = 20;

/// Extra fields of every connection.
#[derive(SimpleObject)]
pub struct ConnectionTotals {
    /// Number of nodes over all pages.
    pub total_count: u64,
}

/// The page size asked for; outside 0..=100 is `BAD_USER_INPUT` on `first`.
pub fn page_size(first: Option<i32>) -> GatewayResult<usize> {
    match first {
        None => Ok(DEFAULT_PAGE_SIZE),
        Some(n) if (0..=MAX_PAGE_SIZE as i32).contains(&n) => Ok(n as usize),
        Some(n) => Err(GatewayError::bad_input(
            "first",
            format!("page size must be between 0 and {MAX_PAGE_SIZE}, got {n}"),
        )),
    }
}

/// A position cursor (`after` of the events connection): the decimal global position.
pub fn position_cursor(after: Option<&str>) -> GatewayResult<Option<u64>> {
    after
        .map(|cursor| {
            cursor.parse::<u64>().map_err(|_| {
                GatewayError::bad_input(
                    "after",
                    format!("{cursor:?} is not a cursor of this connection"),
                )
            })
        })
        .transpose()
}

/// Complexity of a connection field: its selection counted once per node of the page
/// asked for (clamped to the largest page, so a too-large `first` is reported as
/// `BAD_USER_INPUT` by the resolver rather than as too complex).
pub(crate) fn page_complexity(first: Option<i32>, child_complexity: usize) -> usize {
    let page = first.map_or(DEFAULT_PAGE_SIZE, |n| n.clamp(1, MAX_PAGE_SIZE as i32) as usize);
    page.saturating_mul(child_complexity).max(1)
}

/// One page of a list of ids, the cursor of each node being its id.
pub(crate) fn id_page<Node: async_graphql::OutputType>(
    ids: &[uuid::Uuid],
    first: Option<i32>,
    after: Option<String>,
    node: impl Fn(uuid::Uuid) -> Node,
) -> GatewayResult<Connection<String, Node, ConnectionTotals>> {
    let size = page_size(first)?;
    let start = match after {
        None => 0,
        Some(cursor) => {
            let index = uuid::Uuid::parse_str(&cursor)
                .ok()
                .and_then(|after| ids.iter().position(|id| *id == after));
            index.map(|i| i + 1).ok_or_else(|| {
                GatewayError::bad_input(
                    "after",
                    format!("{cursor:?} is not a cursor of this connection"),
                )
            })?
        }
    };
    let end = (start + size).min(ids.len());
    let mut connection = Connection::with_additional_fields(
        start > 0,
        end < ids.len(),
        ConnectionTotals { total_count: ids.len() as u64 },
    );
    connection.edges.extend(ids[start..end].iter().map(|id| Edge::new(id.to_string(), node(*id))));
    Ok(connection)
}

/// Complexity of a list bounded by a league's size (its players, their standings, its
/// games): the selection counted once per player of the largest league the rules allow,
/// so the complexity limit bounds the size of an answer whatever a league holds.
pub(crate) fn league_list_complexity(child_complexity: usize) -> usize {
    (league_domain::rules::MAX_LEAGUE_SIZE as usize).saturating_mul(child_complexity)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_size_defaults_to_20_and_refuses_above_100() {
        assert_eq!(page_size(None).unwrap(), 20);
        assert_eq!(page_size(Some(100)).unwrap(), 100);
        assert_eq!(page_size(Some(0)).unwrap(), 0);
        for bad in [101, -1] {
            let error = page_size(Some(bad)).unwrap_err();
            assert_eq!(error.code(), "BAD_USER_INPUT");
            assert!(error.message().starts_with("first:"));
        }
    }

    #[test]
    fn position_cursors_are_decimal_positions() {
        assert_eq!(position_cursor(None).unwrap(), None);
        assert_eq!(position_cursor(Some("42")).unwrap(), Some(42));
        assert!(position_cursor(Some("abc")).is_err());
    }
}
