//! Rate limits: a token bucket per caller (the admin, each player's token) or, for
//! anonymous callers and bad credentials, per client address. Every GraphQL request draws
//! from the request bucket; a mutation also draws from the stricter mutation bucket once
//! its document shows it is one; a self-registration draws from its own bucket per address
//! ([`SignUpLimiter`]). A refusal carries the seconds to wait (`Retry-After`).

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_graphql::ErrorExtensions;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use uuid::Uuid;

use crate::auth::Caller;
use crate::config::RateLimits;
use crate::error::RATE_LIMITED;

/// Who a request is counted against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RateKey {
    Admin,
    Player(Uuid),
    Addr(IpAddr),
}

impl RateKey {
    /// The key of `caller` calling from `addr`: tokens are counted apart from their
    /// address (a player keeps their allowance behind a shared NAT).
    pub fn of(caller: Caller, addr: IpAddr) -> Self {
        match caller {
            Caller::Admin => RateKey::Admin,
            Caller::Player(id) => RateKey::Player(id),
            Caller::Anonymous => RateKey::Addr(addr),
        }
    }
}

/// A refused request: try again after this long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limited {
    pub retry_after: Duration,
}

impl Limited {
    /// `Retry-After` in whole seconds, rounded up (at least 1).
    pub fn retry_after_secs(&self) -> u64 {
        self.retry_after.as_secs() + u64::from(self.retry_after.subsec_nanos() > 0)
    }

    /// The GraphQL error of the refused request (`extensions.code` [`RATE_LIMITED`],
    /// `extensions.retryAfter` the seconds of `Retry-After`).
    pub fn error(&self) -> async_graphql::Error {
        let seconds = self.retry_after_secs();
        async_graphql::Error::new(format!("rate limit exceeded: retry after {seconds} s"))
            .extend_with(|_, e| {
                e.set("code", RATE_LIMITED);
                e.set("retryAfter", seconds);
            })
    }
}

/// Keys are forgotten once their bucket is full again, every this many checks, so a
/// flood of distinct addresses cannot grow memory without bound.
const SWEEP_EVERY: u64 = 4096;

/// One keyed bucket set; `None` when switched off.
#[derive(Debug, Clone)]
struct Bucket {
    limiter: Option<Arc<DefaultKeyedRateLimiter<RateKey>>>,
    checks: Arc<AtomicU64>,
}

impl Bucket {
    fn new(quota: Option<Quota>) -> Self {
        Bucket {
            limiter: quota.map(|q| Arc::new(DefaultKeyedRateLimiter::keyed(q))),
            checks: Arc::new(AtomicU64::new(0)),
        }
    }

    fn check(&self, key: &RateKey) -> Result<(), Limited> {
        let Some(limiter) = &self.limiter else { return Ok(()) };
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        limiter.check_key(key).map_err(|not_until| Limited {
            retry_after: not_until.wait_time_from(DefaultClock::default().now()),
        })
    }
}

/// The request and mutation buckets of one gateway.
#[derive(Debug, Clone)]
pub struct RateLimiter {
    requests: Bucket,
    mutations: Bucket,
}

/// A quota of `rate` per `period` with bursts of `burst` (at least 1); `None` when `rate`
/// is 0.
fn quota(rate: u32, period: Duration, burst: u32) -> Option<Quota> {
    let rate = NonZeroU32::new(rate)?;
    let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(period / rate.get()).map(|q| q.allow_burst(burst))
}

impl RateLimiter {
    pub fn new(limits: &RateLimits) -> Self {
        RateLimiter {
            requests: Bucket::new(quota(
                limits.requests_per_second,
                Duration::from_secs(1),
                limits.requests_burst,
            )),
            mutations: Bucket::new(quota(
                limits.mutations_per_minute,
                Duration::from_secs(60),
                limits.mutations_burst,
            )),
        }
    }

    /// Draws one request of `key`.
    pub fn check_request(&self, key: &RateKey) -> Result<(), Limited> {
        self.requests.check(key)
    }

    /// Draws one mutation of `key`.
    pub fn check_mutation(&self, key: &RateKey) -> Result<(), Limited> {
        self.mutations.check(key)
    }
}

/// Self-registrations per client address (`docs/operations.md#sign-up`), apart from the
/// request and mutation buckets.
#[derive(Debug, Clone)]
pub struct SignUpLimiter(Bucket);

impl SignUpLimiter {
    /// `per_hour` sign-ups an hour per address, `burst` at once (`0` per hour: no limit).
    pub fn new(per_hour: u32, burst: u32) -> Self {
        SignUpLimiter(Bucket::new(quota(per_hour, Duration::from_secs(3600), burst)))
    }

    /// Draws one sign-up of `addr`.
    pub fn check(&self, addr: IpAddr) -> Result<(), Limited> {
        self.0.check(&RateKey::Addr(addr))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_key_waits_and_other_keys_do_not() {
        let limits = RateLimits {
            requests_per_second: 1,
            requests_burst: 2,
            mutations_per_minute: 0,
            mutations_burst: 0,
        };
        let limiter = RateLimiter::new(&limits);
        let a = RateKey::Addr([10, 0, 0, 1].into());
        let b = RateKey::Player(Uuid::from_u128(1));
        assert!(limiter.check_request(&a).is_ok());
        assert!(limiter.check_request(&a).is_ok());
        let limited = limiter.check_request(&a).unwrap_err();
        assert!(limited.retry_after <= Duration::from_secs(1));
        assert_eq!(limited.retry_after_secs(), 1);
        assert!(limiter.check_request(&b).is_ok());
        // Mutations are off: never limited.
        for _ in 0..100 {
            assert!(limiter.check_mutation(&a).is_ok());
        }
    }
}
