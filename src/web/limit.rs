//! The per-address request limit of the pages: a token bucket per client address ([`RATE`] requests
//! a second on average, bursts of [`BURST`]); a request past it is answered 429. The health routes
//! are not pages and are never limited.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::Instant;

use axum::http::HeaderMap;

/// Requests a second one address may make on average.
pub const RATE: f64 = 20.0;
/// Requests one address may make at once.
pub const BURST: f64 = 40.0;
/// Addresses remembered at most; past it, those with a full bucket (idle a while) are forgotten.
const MAX_ADDRESSES: usize = 10_000;

/// One address's bucket.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The buckets of every address seen.
#[derive(Debug)]
pub struct Limiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl Default for Limiter {
    fn default() -> Limiter {
        Limiter::new(RATE, BURST)
    }
}

impl Limiter {
    /// `rate` requests a second, bursts of `burst`.
    pub fn new(rate: f64, burst: f64) -> Limiter {
        Limiter {
            rate,
            burst,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `address` may make a request now (taking one token if so).
    pub fn allow(&self, address: IpAddr) -> bool {
        self.allow_at(address, Instant::now())
    }

    fn allow_at(&self, address: IpAddr, now: Instant) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_ADDRESSES && !buckets.contains_key(&address) {
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, b| refilled(b, now, rate, burst) < burst);
        }
        let bucket = buckets.entry(address).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        bucket.tokens = refilled(bucket, now, self.rate, self.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The tokens in `bucket` at `now`.
fn refilled(bucket: &Bucket, now: Instant, rate: f64, burst: f64) -> f64 {
    let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
    (bucket.tokens + elapsed * rate).min(burst)
}

/// The client's address: the connection's peer (`None` in-process: the loopback address); behind a
/// reverse proxy on the same machine (a loopback peer), the last address of `X-Forwarded-For`,
/// which the proxy added.
pub fn client_address(peer: Option<SocketAddr>, headers: &HeaderMap) -> IpAddr {
    let peer = peer.map_or(IpAddr::from([127, 0, 0, 1]), |p| p.ip());
    if !peer.is_loopback() {
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|a| a.trim().parse::<IpAddr>().ok())
        .next_back()
        .unwrap_or(peer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_then_the_rate() {
        let limiter = Limiter::new(20.0, 40.0);
        let (ann, bo) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        let now = Instant::now();
        for _ in 0..40 {
            assert!(limiter.allow_at(ann, now));
        }
        assert!(!limiter.allow_at(ann, now), "past the burst");
        assert!(limiter.allow_at(bo, now), "another address has its own");
        assert!(!limiter.allow_at(ann, now + Duration::from_millis(20)));
        assert!(
            limiter.allow_at(ann, now + Duration::from_millis(60)),
            "refilled"
        );
        assert!(!limiter.allow_at(ann, now + Duration::from_millis(60)));
    }

    #[test]
    fn the_client_is_the_peer_or_what_a_local_proxy_says() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            "203.0.113.9, 198.51.100.7".parse().unwrap(),
        );
        let outside: SocketAddr = "192.0.2.1:5000".parse().unwrap();
        assert_eq!(client_address(Some(outside), &headers), outside.ip());
        let proxy: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        assert_eq!(
            client_address(Some(proxy), &headers),
            "198.51.100.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(client_address(Some(proxy), &HeaderMap::new()), proxy.ip());
        assert_eq!(
            client_address(None, &HeaderMap::new()),
            IpAddr::from([127, 0, 0, 1])
        );
    }
}
