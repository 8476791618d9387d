//! Backoff between attempts: exponential with jitter, honouring the server's own wait.

use std::time::{Duration, SystemTime};

/// How often and how patiently failed requests are retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// The first pause.
    pub base: Duration,
    /// The longest computed pause.
    pub cap: Duration,
    /// The longest pause a server may ask for; longer requests wait this long.
    pub max_server_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 4,
            base: Duration::from_millis(500),
            cap: Duration::from_secs(8),
            max_server_delay: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// The pause before retry number `retry` (0 for the first retry): the server's
    /// `Retry-After` when it gave one above zero (longer than `max_server_delay`: that much, since a
    /// quicker retry would land inside the server's window anyway), else `base * 2^retry`
    /// capped, minus up to 25% jitter.
    pub fn delay(&self, retry: u32, server: Option<Duration>) -> Duration {
        // "Now" (`0`, or a date already past by the clocks' skew) is no wait: the backoff's.
        if let Some(wait) = server.filter(|wait| !wait.is_zero()) {
            return wait.min(self.max_server_delay);
        }
        let exponential = self.base.saturating_mul(2u32.saturating_pow(retry)).min(self.cap);
        exponential.mul_f64(1.0 - 0.25 * fastrand::f64())
    }
}

/// The wait a server asks for: `retry-after-ms` (milliseconds) first, then `retry-after`
/// as seconds (possibly fractional) or an HTTP date.
pub fn parse_retry_after(retry_after: Option<&str>, retry_after_ms: Option<&str>, now: SystemTime) -> Option<Duration> {
    // One it cannot wait for (`1e25`) leaves `retry-after` to say.
    if let Some(wait) = retry_after_ms
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
        .and_then(|ms| Duration::try_from_secs_f64(ms / 1000.0).ok())
    {
        return Some(wait);
    }
    let value = retry_after?.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return Duration::try_from_secs_f64(seconds).ok();
    }
    let date = jiff::fmt::rfc2822::parse(value).ok()?.timestamp();
    let now = jiff::Timestamp::try_from(now).ok()?;
    let wait = date.duration_since(now);
    Some(Duration::try_from(wait).unwrap_or(Duration::ZERO))
}

/// How long until a rate limit a 429 gave no `retry-after` for is reset, from the headers
/// that say when each limit resets: OpenAI's `x-ratelimit-reset-requests` and `-tokens` as Go
/// durations (`6m0s`, `1.5s`, `12ms`), Anthropic's `anthropic-ratelimit-*-reset` as RFC 3339
/// times. The limits the headers say are used up (`-remaining-` 0) are the ones the request
/// ran into: the latest of their resets; without such a count, the latest of all.
pub fn rate_limit_reset<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a str)>,
    now: SystemTime,
) -> Option<Duration> {
    let now = jiff::Timestamp::try_from(now).ok()?;
    let mut resets: Vec<(String, Duration)> = Vec::new();
    let mut used_up: Vec<String> = Vec::new();
    for (name, value) in headers {
        let name = name.to_ascii_lowercase();
        let value = value.trim();
        if let Some(limit) = name.strip_prefix("x-ratelimit-reset-") {
            resets.extend(go_duration(value).map(|wait| (limit.to_owned(), wait)));
        } else if let Some(limit) = name.strip_prefix("x-ratelimit-remaining-") {
            if value == "0" {
                used_up.push(limit.to_owned());
            }
        } else if let Some(limit) = name.strip_prefix("anthropic-ratelimit-").and_then(|n| n.strip_suffix("-reset")) {
            if let Ok(at) = value.parse::<jiff::Timestamp>() {
                resets.push((limit.to_owned(), Duration::try_from(at.duration_since(now)).unwrap_or(Duration::ZERO)));
            }
        } else if let Some(limit) = name.strip_prefix("anthropic-ratelimit-").and_then(|n| n.strip_suffix("-remaining"))
            && value == "0"
        {
            used_up.push(limit.to_owned());
        }
    }
    let of_used_up = resets.iter().filter(|(limit, _)| used_up.contains(limit)).map(|(_, wait)| *wait).max();
    of_used_up.or_else(|| resets.iter().map(|(_, wait)| *wait).max())
}

/// A Go duration (`6m0s`, `1h2m`, `1.5s`, `12ms`, `250us`): numbers, each with its unit.
fn go_duration(text: &str) -> Option<Duration> {
    let mut total = 0.0f64;
    let mut rest = text;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let number_end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let number: f64 = rest[..number_end].parse().ok()?;
        rest = &rest[number_end..];
        let unit_end = rest.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(rest.len());
        let seconds = match &rest[..unit_end] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 1e-3,
            "us" | "µs" => 1e-6,
            "ns" => 1e-9,
            _ => return None,
        };
        rest = &rest[unit_end..];
        total += number * seconds;
    }
    Duration::try_from_secs_f64(total).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absurd_waits_are_no_wait_rather_than_a_crash() {
        let now = SystemTime::now();
        assert_eq!(parse_retry_after(Some("1e20"), None, now), None);
        assert_eq!(parse_retry_after(None, Some("1e25"), now), None);
        assert_eq!(
            parse_retry_after(Some("3"), Some("1e25"), now),
            Some(Duration::from_secs(3)),
            "the other header says"
        );
        assert_eq!(parse_retry_after(Some("-3"), None, now), None);
        assert_eq!(parse_retry_after(Some("2.5"), None, now), Some(Duration::from_millis(2500)));
    }

    #[test]
    fn backoff_grows_with_jitter_and_caps() {
        let policy = RetryPolicy::default();
        for retry in 0..10 {
            let expected = Duration::from_millis(500).saturating_mul(2u32.pow(retry)).min(Duration::from_secs(8));
            let delay = policy.delay(retry, None);
            assert!(delay <= expected && delay >= expected.mul_f64(0.75), "{retry}: {delay:?}");
        }
    }

    #[test]
    fn the_servers_wait_is_honoured_up_to_a_minute() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.delay(0, Some(Duration::from_secs(3))), Duration::from_secs(3));
        // A retry sooner than the server asked lands inside its window: wait the most we will.
        assert_eq!(policy.delay(0, Some(Duration::from_secs(90))), Duration::from_secs(60));
    }

    #[test]
    fn a_server_that_says_retry_now_gets_the_backoff_not_a_burst() {
        let policy = RetryPolicy::default();
        for retry in 0..4 {
            let pause = policy.delay(retry, Some(Duration::ZERO));
            assert!(pause >= policy.base.mul_f64(0.75), "retry {retry}: {pause:?}");
        }
        assert_eq!(policy.delay(0, Some(Duration::from_millis(1))), Duration::from_millis(1));
    }

    #[test]
    fn retry_after_in_every_form() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_470); // 2015-10-21 07:27:50 UTC
        assert_eq!(parse_retry_after(Some("2"), None, now), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after(Some("1.5"), None, now), Some(Duration::from_millis(1500)));
        assert_eq!(parse_retry_after(Some("20"), Some("250"), now), Some(Duration::from_millis(250)));
        assert_eq!(parse_retry_after(Some("Wed, 21 Oct 2015 07:28:00 GMT"), None, now), Some(Duration::from_secs(10)));
        assert_eq!(parse_retry_after(Some("Wed, 21 Oct 2015 07:00:00 GMT"), None, now), Some(Duration::ZERO));
        for junk in ["soon", "-3", "NaN", ""] {
            assert_eq!(parse_retry_after(Some(junk), None, now), None, "{junk}");
        }
        assert_eq!(parse_retry_after(None, Some("x"), now), None);
    }

    #[test]
    fn a_rate_limit_says_when_it_resets() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_470); // 2015-10-21 07:27:50 UTC
        let openai = [("x-ratelimit-reset-requests", "12ms"), ("x-ratelimit-reset-tokens", "6m0s")];
        assert_eq!(rate_limit_reset(openai, now), Some(Duration::from_secs(360)));
        assert_eq!(rate_limit_reset([("x-ratelimit-reset-tokens", "1.5s")], now), Some(Duration::from_millis(1500)));
        let anthropic = [
            ("anthropic-ratelimit-requests-reset", "2015-10-21T07:27:55Z"),
            ("anthropic-ratelimit-tokens-reset", "2015-10-21T07:28:10Z"),
            ("anthropic-ratelimit-tokens-remaining", "0"),
        ];
        assert_eq!(rate_limit_reset(anthropic, now), Some(Duration::from_secs(20)));
        // The limit used up is the one waited for, not a slower one with room left.
        let requests_used_up = [
            ("x-ratelimit-remaining-requests", "0"),
            ("x-ratelimit-reset-requests", "1s"),
            ("x-ratelimit-remaining-tokens", "20000"),
            ("x-ratelimit-reset-tokens", "45s"),
        ];
        assert_eq!(rate_limit_reset(requests_used_up, now), Some(Duration::from_secs(1)));
        let anthropic_requests = [
            ("anthropic-ratelimit-requests-remaining", "0"),
            ("anthropic-ratelimit-requests-reset", "2015-10-21T07:27:52Z"),
            ("anthropic-ratelimit-tokens-remaining", "15000"),
            ("anthropic-ratelimit-tokens-reset", "2015-10-21T07:28:40Z"),
        ];
        assert_eq!(rate_limit_reset(anthropic_requests, now), Some(Duration::from_secs(2)));
        assert_eq!(
            rate_limit_reset([("anthropic-ratelimit-tokens-reset", "2015-10-21T07:00:00Z")], now),
            Some(Duration::ZERO)
        );
        for junk in ["", "soon", "6x", "m", "-1s", "1e9999s"] {
            assert_eq!(rate_limit_reset([("x-ratelimit-reset-tokens", junk)], now), None, "{junk}");
        }
        assert_eq!(rate_limit_reset([("content-type", "6s")], now), None);
    }
}
