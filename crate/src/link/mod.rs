//! The link codec: a URL fragment to [`Params`] and back.
//!
//! Link format v1 is a product contract: keys keep their meaning forever, new
//! keys may be added, unknown keys are ignored. One table, [`KEYS`], drives
//! everything: decoding (each key's parser), encoding (each key's formatter,
//! which also says when the key is left out) and the list of known keys. Most
//! rows name a field of [`Params`] and its form (`form.rs`: size, count,
//! flag, list, …) once; a few keys read and write by hand. A new key is one
//! row in `keys.rs`, one field in the model, its name in `model::key` and
//! its limit in `model::limits`.
//!
//! The files, each below the ones that use it (no import cycles,
//! `tests/layers.rs`): `form.rs` (a value's form, the parsers), `keys.rs`
//! (the key table and the encoder), `links.rs` (the links a page keeps),
//! `compare.rs` (comparison links: `b.` keys), `nearest.rs` (mistyped keys),
//! and this file, which decodes.
//!
//! [`decode`] reads an untrusted fragment and never fails or panics: a value
//! that is missing, malformed or out of range is replaced (defaulted or
//! clamped) and a [`Notice`] names the key and what was used instead. The
//! result always passes `Params::check`, which `finish` runs in every build.
//!
//! This module depends on the model only.

use serde::Serialize;

mod links;
pub use links::Links;

/// The links the page keeps for `p` (valid params): see [`Links`].
pub fn links(p: &Params) -> Links {
    links::links_with(p, encode)
}

use crate::model::limits::{max_streams, streams_cap_reason};
use crate::model::params::sweep_point_count;
use crate::model::size::shorten;
use crate::model::{
    format_size, key, Across, Id, ParamError, Params, Sweep, SweepAxis, View, MAX_GRID_POINTS,
    MAX_SWEEP_POINTS,
};
/// Names the unit tests reach through `use super::*`.
#[cfg(test)]
use crate::model::{limits::Bounds, ChunkModel, Lab, LenRange, LIMITS};

mod compare;
mod form;
mod keys;
#[cfg(feature = "full-codec")]
mod nearest;

pub use compare::{changed, comparable, encode_pair, Comparing, B_PREFIX};
pub use keys::{boot_facts, encode, known_keys, BootFacts, Key, DISPLAY_KEYS, KEYS, LINK_VERSION, MAX_LINK_BYTES, SWEEP_KEYS};
#[cfg(feature = "full-codec")]
pub use nearest::nearest_key;

use form::Decoder;
pub use form::{format_chunk, Notice};


// ---------------------------------------------------------------------------
// Decoding

/// What a link decodes to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Decoded {
    pub params: Params,
    pub notices: Vec<Notice>,
    /// The canonical fragment for `params`.
    pub fragment: String,
    /// The links the page keeps for `params` ([`links`]): its run link, its
    /// sweep link, the address bar's and the view they show.
    pub links: Links,
    /// B, when the link compares two experiments (`b.` keys): its params,
    /// the canonical comparison link and what differs from A. `params` and
    /// `fragment` above are A's alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub compare: Option<Comparing>,
    /// The link as given, when this build cannot read all of it: the
    /// counting build leaves out `b.` keys and unknown keys' notices (cargo
    /// feature `full-codec`), so a link with any key that is not one of A's
    /// is read again by a build that has them. `params`, `links` and
    /// `notices` are then of A's keys alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub deferred: Option<String>,
}

/// The keys read by hand: the sweep's, and what is settled once every key is
/// read.
impl Decoder {
    /// The `sweep` key: one axis or two, comma-separated, each with its
    /// default range.
    fn sweep(&mut self, key: &str, raw: &str) -> Option<Sweep> {
        let a = raw.trim().to_ascii_lowercase();
        if a == "off" || a.is_empty() {
            return None;
        }
        let names: Vec<&str> = a.split(',').map(str::trim).collect();
        if names.len() > 2 {
            self.notice(key, format!("'{}': a sweep has one or two axes; using the first two", shorten(raw)));
        }
        let known = format!("{}, off", SweepAxis::ids().join(", "));
        let axis: SweepAxis = self.choice_of(key, names[0], "sweep axis", &known, "no sweep")?;
        let (from, to) = axis.default_range();
        let mut sweep = Sweep::one(axis, from, to);
        let Some(second) = names.get(1).filter(|n| !n.is_empty()) else { return Some(sweep) };
        let across: Option<SweepAxis> =
            self.choice_of(key, second, "sweep axis", &known, &format!("sweeping {} alone", axis.id()));
        match across {
            Some(b) if b == axis => {
                self.notice(key, format!("{} twice; sweeping it alone", axis.id()));
            }
            Some(b) => {
                let (from, to) = b.default_range();
                sweep.across = Some(Across { axis: b, from, to });
            }
            None => {}
        }
        Some(sweep)
    }

    /// The `from` or `to` key: one end of each axis' range, comma-separated
    /// on two axes (an empty part keeps that axis' default). Without a sweep
    /// the key is ignored, with a notice, as is a second part on one axis.
    fn sweep_ends(&mut self, key: &str, raw: &str, p: &mut Params) {
        let Some(sweep) = p.sweep.as_mut() else {
            self.notice(key, "ignored: there is no sweep (set sweep to an axis)".into());
            return;
        };
        let is_from = key == key::FROM;
        let mut parts = raw.split(',');
        let first = parts.next().unwrap_or("");
        let second = parts.next();
        if parts.next().is_some() {
            self.notice(key, format!("'{}': one value per axis; using the first two", shorten(raw)));
        }
        if !first.trim().is_empty() || second.is_none() {
            let end = if is_from { &mut sweep.from } else { &mut sweep.to };
            *end = self.pow2_size(key, first, sweep.axis.bounds(), *end);
        }
        match (second, sweep.across.as_mut()) {
            (Some(raw2), Some(a)) if !raw2.trim().is_empty() => {
                let end = if is_from { &mut a.from } else { &mut a.to };
                *end = self.pow2_size(key, raw2, a.axis.bounds(), *end);
            }
            (Some(raw2), None) if !raw2.trim().is_empty() => {
                self.notice(key, format!("'{}' ignored: the sweep has one axis", shorten(raw2)));
            }
            _ => {}
        }
    }

    /// After every key: a reversed sweep range is swapped; the streams are
    /// capped by the job size (which depends on `len` and `cap`); the
    /// sweep's range is cut to the point limit and to points that keep the
    /// job-size rule, with notices naming `to`; and a link without a `view`
    /// opens the one it implies.
    fn settle(&mut self, p: &mut Params) {
        self.settle_sweep(p);
        p.view = self.view.unwrap_or_else(|| View::implied(p));
    }

    fn settle_sweep(&mut self, p: &mut Params) {
        if let Some(s) = p.sweep.as_mut() {
            if s.from > s.to {
                self.notice(key::FROM, format!("from {} is above to {}; swapped", format_size(s.from), format_size(s.to)));
                std::mem::swap(&mut s.from, &mut s.to);
            }
            if let Some(a) = s.across.as_mut() {
                if a.from > a.to {
                    let (from, to) = (format_size(a.from), format_size(a.to));
                    self.notice(key::FROM, format!("{} from {from} is above to {to}; swapped", a.axis.id()));
                    std::mem::swap(&mut a.from, &mut a.to);
                }
            }
        }
        let most = max_streams(p.len, p.cap);
        if p.streams > most {
            self.notice(
                key::STREAMS,
                format!("{} streams is too many: {}; using {most}", p.streams, streams_cap_reason(p.len, p.cap)),
            );
            p.streams = most;
        }
        let Some(mut s) = p.sweep else { return };
        if sweep_point_count(s.from, s.to) > MAX_SWEEP_POINTS {
            let to = s.from << (MAX_SWEEP_POINTS - 1);
            self.notice(
                key::TO,
                format!(
                    "{} points is too many (at most {MAX_SWEEP_POINTS}); using to = {}",
                    sweep_point_count(s.from, s.to),
                    format_size(to)
                ),
            );
            s.to = to;
        }
        if let Some(mut a) = s.across {
            let rows = sweep_point_count(s.from, s.to);
            let most = (MAX_GRID_POINTS / rows).clamp(1, MAX_SWEEP_POINTS);
            if sweep_point_count(a.from, a.to) > most {
                let to = a.from << (most - 1);
                self.notice(
                    key::TO,
                    format!(
                        "{} × {} points is too many (at most {MAX_SWEEP_POINTS} per axis, {MAX_GRID_POINTS} in all); using {} to = {}",
                        rows,
                        sweep_point_count(a.from, a.to),
                        a.axis.id(),
                        format_size(to)
                    ),
                );
                a.to = to;
            }
            s.across = Some(a);
        }
        if !s.fits(p) {
            let before = s;
            // Cut the second axis first, then the first.
            if let Some(mut a) = s.across {
                while a.to > a.from && !(Sweep { across: Some(a), ..s }).fits(p) {
                    a.to /= 2;
                }
                s.across = Some(a);
            }
            while s.to > 1 && !s.fits(p) {
                s.to /= 2;
            }
            s.from = s.from.min(s.to);
            let q = before.apply(p, before.to, before.across.map(|a| a.to));
            let dropped = before.point_count() - s.point_count();
            self.notice(
                key::TO,
                format!(
                    "{} point{} past {} dropped: {}",
                    dropped,
                    if dropped == 1 { "" } else { "s" },
                    s.describe_last(),
                    streams_cap_reason(q.len, q.cap)
                ),
            );
        }
        p.sweep = Some(s);
    }
}

/// The fragment part of a link, a bare fragment, or a whole URL.
fn fragment_of(link: &str) -> &str {
    let link = link.trim();
    match link.find('#') {
        Some(i) => &link[i + 1..],
        None => link.strip_prefix('?').unwrap_or(link),
    }
}

/// Decodes an untrusted link (a URL, `#fragment` or bare fragment). Never
/// fails and never panics: every problem becomes a [`Notice`]. A link with
/// `b.` keys also gives B ([`Decoded::compare`]).
pub fn decode(link: &str) -> Decoded {
    let mut d = Decoder::new(Params::default());
    let p = d.defaults.clone();
    let fragment = fragment_of(link);

    if fragment.len() > MAX_LINK_BYTES {
        d.notice(
            "link",
            format!("the link is {} bytes, over the {MAX_LINK_BYTES}-byte limit; using defaults", fragment.len()),
        );
        return finish(p, d);
    }
    if fragment.trim() == "reset" {
        return finish(p, d);
    }

    // Percent-decoding and `+` as space, by the URL standard's rules.
    let pairs: Vec<(String, String)> =
        form_urlencoded::parse(fragment.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
    let a = read_keys(d, &pairs, "", p);
    // Only A's keys, or an empty link: nothing for B or the notices below.
    let only_a = pairs.iter().all(|(name, _)| known_keys().any(|k| k == name));
    if only_a && (pairs.is_empty() == fragment.trim().is_empty()) {
        return a;
    }
    #[cfg(not(feature = "full-codec"))]
    return Decoded { deferred: Some(fragment.to_string()), ..a };
    #[cfg(feature = "full-codec")]
    with_others(a, &pairs, fragment)
}

/// `a` with what the link's other keys say: B from its `b.` keys, and a
/// notice for each unknown key, naming the nearest known one.
#[cfg(feature = "full-codec")]
fn with_others(a: Decoded, pairs: &[(String, String)], fragment: &str) -> Decoded {
    let (b, b_notices) = decode_b(pairs, &a.params);
    let mut a = a;
    a.notices.extend(b_notices);
    // Unknown keys are ignored, each with a notice naming the nearest known
    // key; a link with text and not one known key cannot be read at all:
    // say so rather than show the defaults silently.
    let known = |name: &str| known_keys().any(|k| k == name) || compare::is_b_key(name);
    if !fragment.trim().is_empty() && !pairs.iter().any(|(name, _)| known(name)) {
        a.notices.push(Notice {
            key: "link".into(),
            message: format!(
                "nothing in '{}' is a BufLab setting (no known key such as v, len or cap); showing the defaults",
                shorten(fragment)
            ),
        });
    } else {
        a.notices.extend(nearest::unknown_key_notices(pairs.iter().map(|(name, _)| name.as_str()).filter(|n| !known(n))));
    }
    a.compare = b.map(|b| compare::comparing(&a.params, b));
    a
}

/// Decodes B from the link's `b.` pairs over A's params: `None` when the
/// link has no `b.` key B may set. The notices name each key with its prefix.
#[cfg(feature = "full-codec")]
fn decode_b(pairs: &[(String, String)], a: &Params) -> (Option<Params>, Vec<Notice>) {
    let mut refused = Vec::new();
    let mut comparing = false;
    for (name, _) in pairs {
        let Some(rest) = name.strip_prefix(B_PREFIX) else { continue };
        if DISPLAY_KEYS.contains(&rest) {
            if !refused.iter().any(|n: &Notice| n.key == *name) {
                refused.push(Notice {
                    key: name.clone(),
                    message: format!("{rest} changes how the page looks, never a result, so A and B share it; ignored"),
                });
            }
        } else if compare::is_b_key(name) {
            comparing = true;
        }
    }
    if !comparing {
        return (None, refused);
    }
    let mut read = read_keys(Decoder::new(a.clone()), pairs, B_PREFIX, a.clone());
    read.notices.extend(refused);
    (Some(read.params.shown_as(a)), read.notices)
}

/// Reads every key of the table from `pairs` (the ones named `prefix` +
/// key) over `p`, then settles and checks the result.
fn read_keys(mut d: Decoder, pairs: &[(String, String)], prefix: &'static str, mut p: Params) -> Decoded {
    d.prefix = prefix;
    for k in KEYS {
        let values: Vec<&str> =
            pairs.iter().filter(|(name, _)| name.strip_prefix(prefix) == Some(k.name)).map(|(_, v)| v.as_str()).collect();
        match values.as_slice() {
            [] => {}
            [one] => (k.decode)(&mut d, k.name, one, &mut p),
            _ => d.notice(k.name, format!("given {} times; using the default", values.len())),
        }
    }
    d.settle(&mut p);
    finish(p, d)
}

/// The decoded params, checked strictly in every build (release and wasm
/// too): the parsers above clamp every value, and should one ever let a value
/// past its limit, the link is refused whole with a notice naming the key,
/// and the defaults are used, rather than untrusted input reaching the engine.
fn finish(params: Params, mut d: Decoder) -> Decoded {
    let params = match params.check() {
        Ok(()) => params,
        Err(e) => {
            let instead = if d.prefix.is_empty() { "using defaults" } else { "B is A" };
            d.notice(e.key, format!("{}; the link cannot be used as it is, {instead}", e.message));
            d.defaults
        }
    };
    Decoded { fragment: encode(&params), links: links(&params), params, notices: d.notices, compare: None, deferred: None }
}

/// `p` with its sweep fitted to the rest of `p` the way a link's would be
/// (rounded, cut to the point limit and the job-size rule), with notices
/// naming `from`/`to`. For the page, when a setting such as `len` changes
/// under a sweep. The rest of `p` must be valid.
pub fn fit_sweep(p: &Params) -> Result<Decoded, ParamError> {
    Params { sweep: None, ..p.clone() }.check()?;
    Ok(decode(&encode(p)))
}

/// The params of a canonical link (as [`encode`] writes it), strictly: a
/// link the codec would have to correct is refused, with its first notice.
/// For callers that are handed a link instead of params (the wasm `run`, so
/// the page's first wasm needs no deserializer for params).
pub fn params_of(link: &str) -> Result<Params, ParamError> {
    let d = decode(link);
    match d.notices.into_iter().next() {
        None => Ok(d.params),
        Some(n) => Err(ParamError { key: "link", message: format!("{}: {}", n.key, n.message) }),
    }
}

/// Parses structured params (JSON, as the CLI's `--params` and the tests give
/// them) and checks them strictly. Unknown fields are ignored.
pub fn params_from_json(json: &str) -> Result<Params, ParamError> {
    let p: Params = serde_json::from_str(json).map_err(|e| ParamError { key: "params", message: e.to_string() })?;
    p.check()?;
    Ok(p)
}

#[cfg(test)]
mod tests;
