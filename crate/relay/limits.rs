//! What one connection may send: token buckets on messages and bytes per second, so a tab
//! that floods (a bug, or a student's experiment) is cut off before it slows the class.

use std::time::Instant;

/// A token bucket: fills at `rate` tokens a second up to `burst`; a message takes its cost.
#[derive(Debug)]
struct Bucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket holding two seconds' worth.
    fn new(rate: f64, now: Instant) -> Bucket {
        Bucket { rate, burst: 2.0 * rate, tokens: 2.0 * rate, at: now }
    }

    /// Takes `cost` tokens if there are that many.
    fn take(&mut self, cost: f64, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        self.at = now;
        if self.tokens < cost {
            return false;
        }
        self.tokens -= cost;
        true
    }
}

/// A connection's two buckets.
#[derive(Debug)]
pub struct Limits {
    messages: Bucket,
    bytes: Bucket,
}

impl Limits {
    /// Limits of `messages` and `bytes` a second, each with a burst of twice that.
    pub fn new(messages: u32, bytes: u32, now: Instant) -> Limits {
        Limits { messages: Bucket::new(f64::from(messages), now), bytes: Bucket::new(f64::from(bytes), now) }
    }

    /// Admits one message of `len` bytes, or says which limit it is past.
    pub fn admit(&mut self, len: usize, now: Instant) -> Result<(), &'static str> {
        if !self.messages.take(1.0, now) {
            return Err("past the relay's limit on messages a second");
        }
        if !self.bytes.take(len as f64, now) {
            return Err("past the relay's limit on bytes a second");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_of_twice_the_rate_passes_then_the_rate_refills() {
        let start = Instant::now();
        let mut limits = Limits::new(10, 1000, start);
        assert!((0..20).all(|_| limits.admit(10, start).is_ok()), "the burst");
        assert!(limits.admit(10, start).unwrap_err().contains("messages"));
        let later = start + Duration::from_millis(500);
        assert!((0..5).all(|_| limits.admit(10, later).is_ok()), "half a second refills five");
        assert!(limits.admit(10, later).is_err());
        let mut bytes = Limits::new(100, 1000, start);
        assert!(bytes.admit(2000, start).is_ok() && bytes.admit(1, start).unwrap_err().contains("bytes"));
    }
}
