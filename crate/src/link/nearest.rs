//! Keys a person mistypes: an unknown key gets a notice naming the known key
//! it is nearest to (`CAP` → `cap`, `cpa` → `cap`, `b.cpa` → `b.cap`), and
//! is otherwise ignored, so the link still runs.
//!
//! Nearest means, in this order: the same key in another case; else the
//! fewest single-character edits (insert, delete, replace, or swap two
//! neighbours: the optimal string alignment distance), at most 1 for a key
//! of up to 4 characters and 2 for a longer one, and fewer than the key's
//! own length (so `x` is not taken for `v`). A tie goes to the key the
//! table lists first.

use super::compare::{comparable, B_PREFIX};
use super::form::Notice;
use super::keys::known_keys;
use crate::model::size::shorten;

/// Every key a link may carry: the table's keys, then B's.
fn candidates() -> impl Iterator<Item = String> {
    known_keys()
        .map(str::to_string)
        .chain(known_keys().filter(|k| comparable(k)).map(|k| format!("{B_PREFIX}{k}")))
}

/// The known key nearest to `typed`, if one is near enough.
pub fn nearest_key(typed: &str) -> Option<String> {
    // Keys are ASCII: no Unicode case tables for a mistyped one.
    let lower = typed.to_ascii_lowercase();
    if let Some(same) = candidates().find(|k| *k == lower) {
        return Some(same);
    }
    let len = lower.len();
    let most = if len <= 4 { 1 } else { 2 };
    let (best, distance) = candidates().map(|k| {
        let d = edits(&lower, &k);
        (k, d)
    })
    .fold((None, usize::MAX), |(best, bd), (k, d)| if d < bd { (Some(k), d) } else { (best, bd) });
    best.filter(|_| distance <= most && distance < len)
}

/// One notice per distinct unknown key, in the order they appear.
pub(super) fn unknown_key_notices<'a>(unknown: impl Iterator<Item = &'a str>) -> Vec<Notice> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for name in unknown {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        let message = match nearest_key(name) {
            Some(k) => format!("unknown key '{}' ignored; did you mean '{k}'?", shorten(name)),
            None => format!("unknown key '{}' ignored: not a BufLab setting", shorten(name)),
        };
        out.push(Notice { key: shorten(name), message });
    }
    out
}

/// The optimal string alignment distance between `a` and `b`: the fewest
/// inserts, deletes, replacements and swaps of two neighbouring characters
/// (no character edited twice). Inputs are short (a link's key names): the
/// table is `|a| × |b|`.
fn edits(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    // Keys longer than any known key by more than the threshold are never near.
    if a.len() > 64 {
        return usize::MAX;
    }
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=b.len() {
        d[0][j] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_count_swaps_as_one() {
        assert_eq!(edits("cpa", "cap"), 1);
        assert_eq!(edits("cap", "cap"), 0);
        assert_eq!(edits("cp", "cap"), 1);
        assert_eq!(edits("capp", "cap"), 1);
        assert_eq!(edits("lenn", "len"), 1);
        assert_eq!(edits("", "cap"), 3);
        assert_eq!(edits("seeds", "seed"), 1);
        // A swap at the end of a longer key, where j - 2 is not j / 2.
        assert_eq!(edits("lessno", "lesson"), 1);
    }

    #[test]
    fn the_nearest_key_is_the_same_in_another_case_then_the_fewest_edits() {
        assert_eq!(nearest_key("CAP").as_deref(), Some("cap"));
        assert_eq!(nearest_key("cpa").as_deref(), Some("cap"));
        assert_eq!(nearest_key("Chunk").as_deref(), Some("chunk"));
        assert_eq!(nearest_key("chunks").as_deref(), Some("chunk"));
        assert_eq!(nearest_key("workload"), None, "too far from wl");
        assert_eq!(nearest_key("lesosn").as_deref(), Some("lesson"));
        assert_eq!(nearest_key("B.CAP").as_deref(), Some("b.cap"));
        assert_eq!(nearest_key("b.cpa").as_deref(), Some("b.cap"));
        assert_eq!(nearest_key("x"), None, "one letter is never taken for another key");
        assert_eq!(nearest_key("future"), None);
        assert_eq!(nearest_key(&"q".repeat(500)), None);
    }

    #[test]
    fn a_key_of_up_to_4_characters_is_near_at_one_edit_a_longer_at_two_and_a_tie_goes_to_the_first_listed() {
        // `cpax` is two edits from `cap`: too far for a key of 4 characters.
        assert_eq!(nearest_key("cpax"), None);
        // Two edits are near enough for a longer one.
        assert_eq!(nearest_key("lesxxn").as_deref(), Some("lesson"));
        assert_eq!(nearest_key("chnku").as_deref(), Some("chunk"));
        // `rx` is one edit from `rs` and from `rd`: the table lists `rs` first.
        assert_eq!(nearest_key("rx").as_deref(), Some("rs"));
    }
}
