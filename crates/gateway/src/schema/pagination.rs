//! Relay connection arguments: `first` (1..=100, default 20) and an opaque `after` cursor.

use super::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};
use crate::error::{GatewayError, GatewayResult};

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
