//! Where a webhook may send (`docs/webhooks.md#addresses`): never to the server's own
//! network unless the operator allows it. Addresses in loopback, private, link-local (cloud
//! metadata services live there), carrier-grade NAT, unique-local, unspecified, multicast,
//! documentation and reserved ranges are refused at registration and again at delivery, after
//! DNS resolution: the delivery client resolves names through [`GuardedResolver`], which hands
//! the connector only addresses it checked, so a name cannot resolve to a public address for
//! the check and to a private one for the connection (DNS rebinding).

use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::pin::Pin;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// Why a webhook URL is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("{0}")]
    Invalid(String),
    #[error("{host} resolves to {address}, in a range webhooks may not reach ({range})")]
    Refused { host: String, address: IpAddr, range: &'static str },
    #[error("cannot resolve {host}: {reason}")]
    Unresolved { host: String, reason: String },
}

/// The ranges `allow_private` opens: a receiver on the operator's own machine or network.
/// Every other refused range (carrier-grade NAT, documentation, benchmarking, reserved,
/// unspecified, multicast, broadcast) stays refused whatever the setting.
const PRIVATE_RANGES: &[&str] = &[
    "loopback",
    "private",
    "link-local (cloud metadata)",
    "unique-local (private)",
    "link-local",
    "site-local (private)",
];

/// The range `address` falls in that webhooks may not reach, if any. With `allow_private`
/// (an operator's setting, e.g. for a receiver on the same machine) the loopback, private and
/// link-local ranges ([`PRIVATE_RANGES`]) are allowed; no other.
pub fn refused_range(address: IpAddr, allow_private: bool) -> Option<&'static str> {
    let range = match address {
        IpAddr::V4(v4) => v4_range(v4),
        IpAddr::V6(v6) => v6_range(v6),
    }?;
    (!allow_private || !PRIVATE_RANGES.contains(&range)).then_some(range)
}

fn v4_range(address: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = address.octets();
    Some(match (a, b, c) {
        (0, _, _) => "unspecified",
        (127, _, _) => "loopback",
        (10, _, _) | (172, 16..=31, _) | (192, 168, _) => "private",
        (169, 254, _) => "link-local (cloud metadata)",
        (100, 64..=127, _) => "carrier-grade NAT",
        (192, 0, 0) => "reserved",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "documentation",
        (198, 18..=19, _) => "benchmarking",
        (224..=239, _, _) => "multicast",
        (255, 255, 255) if address.is_broadcast() => "broadcast",
        (240..=255, _, _) => "reserved",
        _ => return None,
    })
}

fn v6_range(address: Ipv6Addr) -> Option<&'static str> {
    if let Some(v4) = address.to_ipv4_mapped() {
        return v4_range(v4);
    }
    let segments = address.segments();
    // NAT64 (64:ff9b::/96) reaches the IPv4 address in its last 32 bits.
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let [.., high, low] = segments;
        return v4_range(Ipv4Addr::from((u32::from(high) << 16) | u32::from(low)));
    }
    Some(match segments[0] {
        _ if address.is_unspecified() => "unspecified",
        _ if address.is_loopback() => "loopback",
        0xfc00..=0xfdff => "unique-local (private)",
        0xfe80..=0xfebf => "link-local",
        0xfec0..=0xfeff => "site-local (private)",
        0xff00..=0xffff => "multicast",
        0x2001 if segments[1] == 0x0db8 => "documentation",
        // IPv4-compatible (deprecated) addresses, ::/96.
        0 if segments[1..6] == [0; 5] => "reserved",
        _ => return None,
    })
}

/// The URL's host and port, and a refusal when the host is an IP literal in a refused range.
/// Names are checked when resolved ([`check_destination`], [`GuardedResolver`]).
fn host_of(url: &str, allow_private: bool) -> Result<(url::Host<String>, u16), AddressError> {
    let parsed = url::Url::parse(url).map_err(|error| AddressError::Invalid(error.to_string()))?;
    let host = parsed
        .host()
        .ok_or_else(|| AddressError::Invalid("the URL names no host".into()))?
        .to_owned();
    let port = parsed
        .port_or_known_default()
        .ok_or_else(|| AddressError::Invalid("the URL names no port".into()))?;
    let literal = match &host {
        url::Host::Ipv4(v4) => Some(IpAddr::V4(*v4)),
        url::Host::Ipv6(v6) => Some(IpAddr::V6(*v6)),
        url::Host::Domain(_) => None,
    };
    if let Some(address) = literal {
        check_address(&host.to_string(), address, allow_private)?;
    }
    Ok((host, port))
}

fn check_address(host: &str, address: IpAddr, allow_private: bool) -> Result<(), AddressError> {
    match refused_range(address, allow_private) {
        Some(range) => Err(AddressError::Refused { host: host.to_owned(), address, range }),
        None => Ok(()),
    }
}

/// Refuses a URL whose host is, or resolves to, an address in a refused range (every address
/// the name resolves to is checked). Used at registration; deliveries check again through
/// [`GuardedResolver`].
pub async fn check_destination(url: &str, allow_private: bool) -> Result<(), AddressError> {
    let (host, port) = host_of(url, allow_private)?;
    if let url::Host::Domain(name) = host {
        resolve_checked(&name, port, allow_private).await?;
    }
    Ok(())
}

/// Checks an IP-literal URL before sending (the resolver is not asked about literals).
pub(crate) fn check_literal(url: &str, allow_private: bool) -> Result<(), AddressError> {
    host_of(url, allow_private).map(drop)
}

/// Resolves `name`, refusing it when any of its addresses is in a refused range.
async fn resolve_checked(
    name: &str,
    port: u16,
    allow_private: bool,
) -> Result<Vec<SocketAddr>, AddressError> {
    let unresolved = |reason: String| AddressError::Unresolved { host: name.to_owned(), reason };
    let addresses: Vec<SocketAddr> = tokio::net::lookup_host((name, port))
        .await
        .map_err(|error| unresolved(error.to_string()))?
        .collect();
    if addresses.is_empty() {
        return Err(unresolved("no addresses".into()));
    }
    for address in &addresses {
        check_address(name, address.ip(), allow_private)?;
    }
    Ok(addresses)
}

/// The delivery client's resolver: the addresses it returns are the ones it checked, and the
/// client connects to exactly those.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GuardedResolver {
    pub(crate) allow_private: bool,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        let resolving: Pin<Box<dyn Future<Output = _> + Send>> = Box::pin(async move {
            // The connector puts the URL's port on the addresses it is given.
            let addresses = resolve_checked(name.as_str(), 0, allow_private).await?;
            Ok(Box::new(addresses.into_iter()) as Addrs)
        });
        Box::pin(async move {
            resolving.await.map_err(|error: AddressError| {
                Box::new(error) as Box<dyn std::error::Error + Send + Sync>
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(address: &str) -> Option<&'static str> {
        refused_range(address.parse().unwrap(), false)
    }

    #[test]
    fn private_loopback_link_local_and_metadata_ranges_are_refused() {
        for address in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fd00:ec2::254",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "2001:db8::1",
        ] {
            assert!(refused(address).is_some(), "{address} should be refused");
        }
        for address in ["1.1.1.1", "172.32.0.1", "93.184.216.34", "2606:4700::1111"] {
            assert_eq!(refused(address), None, "{address} is public");
        }
    }

    #[test]
    fn the_operator_setting_allows_loopback_private_and_link_local_only() {
        let allowed = |a: &str| refused_range(a.parse().unwrap(), true);
        for open in ["127.0.0.1", "10.0.0.1", "192.168.1.1", "169.254.169.254", "::1"] {
            assert_eq!(allowed(open), None, "{open} is opened by the setting");
        }
        for open in ["fd00::1", "fe80::1", "::ffff:10.0.0.1"] {
            assert_eq!(allowed(open), None, "{open} is opened by the setting");
        }
        assert_eq!(allowed("0.0.0.0"), Some("unspecified"));
        assert_eq!(allowed("ff02::1"), Some("multicast"));
        assert_eq!(allowed("255.255.255.255"), Some("broadcast"));
        assert_eq!(allowed("100.64.0.1"), Some("carrier-grade NAT"));
        assert_eq!(allowed("192.0.2.1"), Some("documentation"));
        assert_eq!(allowed("2001:db8::1"), Some("documentation"));
        assert_eq!(allowed("198.18.0.1"), Some("benchmarking"));
        assert_eq!(allowed("240.0.0.1"), Some("reserved"));
    }

    #[tokio::test]
    async fn literal_and_resolved_hosts_are_checked_at_registration() {
        let refused = check_destination("http://127.0.0.1:9/hook", false).await.unwrap_err();
        assert!(matches!(refused, AddressError::Refused { range: "loopback", .. }), "{refused}");
        let refused = check_destination("http://[::1]/hook", false).await.unwrap_err();
        assert!(matches!(refused, AddressError::Refused { .. }), "{refused}");
        let refused = check_destination("http://localhost:8080/hook", false).await.unwrap_err();
        assert!(matches!(refused, AddressError::Refused { .. }), "{refused}");
        assert_eq!(check_destination("http://127.0.0.1:9/hook", true).await, Ok(()));
        assert_eq!(check_destination("http://localhost:8080/hook", true).await, Ok(()));
    }
}
