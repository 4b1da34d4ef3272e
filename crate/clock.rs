//! A monotonic millisecond clock that works natively and in the browser, where
//! `std::time::Instant` is unavailable on `wasm32-unknown-unknown`.

/// Milliseconds since an arbitrary fixed origin; only differences are meaningful.
#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// Milliseconds since the Unix epoch (JavaScript's `Date.now()`), available in every
/// worker; only differences are meaningful.
#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}
