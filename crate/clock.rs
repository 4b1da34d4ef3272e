//! Monotonic clocks that work natively and in the browser, where `std::time::Instant`
//! is unavailable on `wasm32-unknown-unknown`.

/// The origin of the native clocks, fixed at first use.
#[cfg(not(target_arch = "wasm32"))]
fn since_origin() -> std::time::Duration {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed()
}

/// Milliseconds since an arbitrary fixed origin; only differences are meaningful.
#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    since_origin().as_secs_f64() * 1e3
}

/// Milliseconds since the Unix epoch (JavaScript's `Date.now()`), available in every
/// worker and the same origin in each; only differences are meaningful.
#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Microseconds on this thread's finest clock, for intervals too short for [`now_ms`]
/// (a message's round trip, a look at a mailbox); only differences taken on one thread
/// count, since in the browser each worker's clock has its own origin.
#[cfg(not(target_arch = "wasm32"))]
pub fn now_us() -> f64 {
    since_origin().as_secs_f64() * 1e6
}

/// Microseconds on this worker's `performance.now()`: in a cross-origin isolated page
/// Chromium gives it 5 µs grains with jitter, against `Date.now()`'s whole milliseconds.
#[cfg(target_arch = "wasm32")]
pub fn now_us() -> f64 {
    performance_now() * 1e3
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}
