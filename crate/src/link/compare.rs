//! Comparison links: two experiments in one link. A is the link's keys; B is
//! written as the keys where it differs from A, each prefixed `b.`:
//!
//! `#v=1&len=1M&chunk=poor&cap=8K&rs=1&rd=std&b.cap=64K`
//!
//! - B is A with its `b.` keys applied, read by the same key table and the
//!   same parsers as any link ([`super::KEYS`]): an unreadable value falls
//!   back to A's (B's starting point, as the defaults are A's), an
//!   out-of-range one is clamped to the same limits, and every notice
//!   names the key as written (`b.cap`). B's job-size rule and sweep are
//!   settled against B's own values.
//! - The display keys ([`DISPLAY_KEYS`]: presenter mode, the view, the
//!   lesson, …) change no result, so they are not compared: `b.present`
//!   and its kind are refused with a notice, and B shows as A does.
//! - The canonical link writes A's canonical link, then B's value of every
//!   key whose value differs from A's, in the key table's order (a `b.sweep`
//!   brings its `b.from` and `b.to`, whose meaning depends on the axis). B
//!   the same experiment as A (an A/A comparison) is written `b.v=1`: a
//!   comparison with nothing changed.
//!
//! B is read by the codec's own `read_keys` (`mod.rs`, `decode_b`); this
//! module holds what a comparison link is, over the key table (`keys.rs`).

use serde::Serialize;

use super::keys::{encode, known_keys, Key, DISPLAY_KEYS, KEYS, LINK_VERSION};
use crate::model::{key, Changed, Params};

/// What every key of B is prefixed with.
pub const B_PREFIX: &str = "b.";

/// Whether B may set the key `name` (without its prefix): every key of the
/// table but the display keys. (`b.v`, the link version, is read as for A:
/// it marks a comparison with nothing changed.)
pub fn comparable(name: &str) -> bool {
    !DISPLAY_KEYS.contains(&name) && known_keys().any(|k| k == name)
}

/// Whether `name` is a key of the table with B's prefix, comparable or not
/// (a display key with the prefix is known, and refused with a notice).
#[cfg(feature = "full-codec")]
pub(super) fn is_b_key(name: &str) -> bool {
    name.strip_prefix(B_PREFIX).is_some_and(|rest| known_keys().any(|k| k == rest))
}

/// B of a comparison link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Comparing {
    /// B's params: A's, with the `b.` keys applied, and A's display fields.
    pub params: Params,
    /// The canonical comparison link: A's canonical link, then B's `b.`
    /// keys ([`encode_pair`]).
    pub fragment: String,
    /// The settings that differ, in the key table's order; empty for an A/A
    /// comparison.
    pub changed: Vec<Changed>,
}

/// B with A's display fields, and the canonical comparison link.
#[cfg(feature = "full-codec")]
pub(super) fn comparing(a: &Params, b: Params) -> Comparing {
    let b = b.shown_as(a);
    Comparing { fragment: encode_pair(a, &b), changed: changed(a, &b), params: b }
}

/// The settings of B that differ from A's, with both values, in the key
/// table's order. A `sweep` that changes brings its ends, whose values mean
/// something else on another axis.
pub fn changed(a: &Params, b: &Params) -> Vec<Changed> {
    let sweep: &Key = KEYS.iter().find(|k| k.name == key::SWEEP).expect("the key table has the sweep key");
    let axes_changed = (sweep.value)(a) != (sweep.value)(b);
    KEYS.iter()
        .filter(|k| comparable(k.name))
        .filter_map(|k| {
            let (va, vb) = ((k.value)(a), (k.value)(b));
            let ends = axes_changed && (k.name == key::FROM || k.name == key::TO);
            // Ends B has none of go with its `sweep=off`.
            (vb.is_some() && (va != vb || ends)).then(|| Changed { key: k.name.to_string(), a: va, b: vb })
        })
        .collect()
}

/// The canonical link of a comparison: A's canonical link, then `b.key=value`
/// for every setting of B that differs from A's ([`changed`]); `b.v=1` when
/// none does.
pub fn encode_pair(a: &Params, b: &Params) -> String {
    let mut out = encode(a);
    let changed = changed(a, b);
    if changed.is_empty() {
        out.push_str(&format!("&{B_PREFIX}{}={}", key::VERSION, LINK_VERSION));
    }
    for c in changed {
        out.push_str(&format!("&{B_PREFIX}{}={}", c.key, c.b.unwrap_or_default()));
    }
    out
}
