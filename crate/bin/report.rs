//! What the measuring commands print besides their rows: spreads and message counts.

use meshmate::machine::MessageKind;

/// The lowest and the highest of `values` (the spread of single rounds or seeds).
pub fn lowest_and_highest(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::MAX, f64::MIN), |(low, high), x| (low.min(x), high.max(x)))
}

/// "kind count, ..." for the kinds of message that were sent at all (`None`: none were).
pub fn messages_by_kind(count: impl Fn(MessageKind) -> u64) -> Option<String> {
    let sent: Vec<String> = MessageKind::ALL.iter().map(|&k| (k, count(k))).filter(|&(_, n)| n > 0).map(|(k, n)| format!("{} {n}", k.name())).collect();
    (!sent.is_empty()).then(|| sent.join(", "))
}
