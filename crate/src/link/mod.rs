//! The link codec: a URL fragment to [`Params`] and back.
//!
//! Link format v1 is a product contract: keys keep their meaning forever, new
//! keys may be added, unknown keys are ignored. One table, [`KEYS`], drives
//! everything: decoding (each key's parser), encoding (each key's formatter,
//! which also says when the key is left out) and the list of known keys. Most
//! rows name a field of [`Params`] and its form (`form.rs`: size, count,
//! flag, list, …) once; a few keys read and write by hand. A new key is one
//! row here, one field in the model, its name in `model::key` and its limit
//! in `model::limits`.
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
    format_size, key, Across, Id, Lab, ParamError, Params, Sweep, SweepAxis, View, LIMITS, MAX_GRID_POINTS,
    MAX_SWEEP_POINTS,
};
/// Names the unit tests reach through `use super::*`.
#[cfg(test)]
use crate::model::{limits::Bounds, ChunkModel, LenRange};

mod form;

use form::{on_off, Decoder};
pub use form::{format_chunk, Notice};

/// The link format version this build writes (and the only one it reads).
pub const LINK_VERSION: u32 = 1;

/// A fragment longer than this is refused whole (untrusted input).
pub const MAX_LINK_BYTES: usize = 8 * 1024;

/// Keys that never change a result: presenter mode, the result view shown,
/// the timeline's step, the lesson a link was opened from, predict-then-reveal, the quiz and its seed, and where `sys` came from (a result
/// follows `sys` itself). Two links that differ only in these describe the
/// same experiment (the page's baseline comparison and "settings changed
/// since the lesson" both rely on this list).
pub const DISPLAY_KEYS: &[&str] = &[key::PRESENT, key::VIEW, key::STEP, key::LESSON, key::SYS_SOURCE, key::EMBED, key::PREDICT, key::QUIZ, key::QUIZ_SEED];

/// Keys that say what a sweep runs, never what a single run measures: a
/// single run's link (its report, exports and native command) leaves them
/// out, and only the sweep view's link carries them.
pub const SWEEP_KEYS: &[&str] = &[key::SWEEP, key::FROM, key::TO];

/// One link key: how it is read and how it is written.
pub struct Key {
    pub name: &'static str,
    /// Reads the key's raw (percent-decoded) value, given with the key's
    /// name, into the params, adding a notice for anything it could not use
    /// as given.
    decode: fn(&mut Decoder, &'static str, &str, &mut Params),
    /// The key's value in the canonical link, or `None` when the key is left
    /// out (keys added after v1's first form appear only when they differ
    /// from their defaults, so older links keep their form).
    encode: fn(&Params) -> Option<String>,
}

/// A [`Key`] for one field of [`Params`], from one row: the key's name in
/// `model::key`, the field's path, its form (`form.rs`), and when the canonical link
/// writes it (always, unless `if changed`: when it differs from the default,
/// or `if write_shown`: with the write lab's keys).
macro_rules! field_key {
    ($name:ident => $($field:ident).+ : $form:expr $(, if $when:ident)?) => {
        Key {
            name: key::$name,
            decode: |d, name, raw, p| {
                let default = d.defaults.$($field).+.clone();
                p.$($field).+ = $form.read(d, name, raw, default);
            },
            encode: |p| {
                let written = field_key!(@written p, $($field).+ $(, $when)?);
                written.then(|| $form.write(&p.$($field).+))
            },
        }
    };
    (@written $p:ident, $($field:ident).+) => { true };
    (@written $p:ident, $($field:ident).+, changed) => { $p.$($field).+ != Params::default().$($field).+ };
    (@written $p:ident, $($field:ident).+, write_shown) => { write_shown($p) };
}

/// Every link key, in the order the canonical link writes them: one row each.
pub const KEYS: &[Key] = {
    use form::*;
    &[
        Key {
            name: key::VERSION,
            decode: |d, name, raw, _| {
                if raw.trim() != LINK_VERSION.to_string() {
                    let given = shorten(raw);
                    d.notice(name, format!("link version '{given}' is not {LINK_VERSION}; reading it as {LINK_VERSION}"));
                }
            },
            encode: |_| Some(LINK_VERSION.to_string()),
        },
        field_key!(LEN => len: Size(LIMITS.len)),
        field_key!(CHUNK => chunk: Chunks),
        field_key!(SEED => seed: Count(LIMITS.seed)),
        field_key!(CAP => cap: Size(LIMITS.cap)),
        field_key!(READ_SIZE => rs: Size(LIMITS.rs)),
        field_key!(SYS => sys: Count(LIMITS.sys)),
        // The cost per KiB a source read returns, on top of `sys`.
        field_key!(SYS_KIB => sys_kib: Count(LIMITS.sys_kib), if changed),
        // Where `sys` came from; written only when it was calibrated, so
        // links with a hand-set `sys` keep their form.
        field_key!(SYS_SOURCE => sys_source: Choice("sys source", Some("sys counts as set by hand")), if changed),
        field_key!(READERS => readers: List("reader")),
        field_key!(WORKLOAD => workload: Choice("workload", None)),
        field_key!(STREAMS => streams: Count(LIMITS.streams), if changed),
        field_key!(POOL => pool: Flag, if changed),
        field_key!(REUSE => reuse: Flag, if changed),
        field_key!(LINE => line: Lengths(LIMITS.line), if changed),
        field_key!(FRAME => frame: Lengths(LIMITS.frame), if changed),
        field_key!(NUL => nul: Size(LIMITS.nul), if changed),
        // How often an async reader's source is not yet ready: a percentage
        // of source reads, each preceded by at most one `Pending`
        // (LIMITS.pend says why that bounds every link).
        field_key!(PEND => pend: Percent(LIMITS.pend), if changed),
        // Arrival in time: the pieces' rate in bytes per second (`off`: none,
        // each read gets one fresh piece, as links without the key always
        // meant), and the application's work per piece it receives.
        field_key!(RATE => rate: SizeOrOff(LIMITS.rate), if changed),
        field_key!(WORK => work: Count(LIMITS.work), if changed),
        field_key!(PRESENT => present: Flag, if changed),
        field_key!(PREDICT => predict: Flag, if changed),
        // The quiz the engine writes (`catalog::quiz`) and its seed.
        field_key!(QUIZ => quiz: Flag, if changed),
        field_key!(QUIZ_SEED => qseed: Count(LIMITS.qseed), if changed),
        // The write lab: `lab=write` when it is shown (absent means the read
        // lab, so older links keep their meaning); its keys whenever it is
        // shown or its settings differ from the defaults, so switching labs
        // keeps both.
        field_key!(LAB => lab: Choice("lab", None), if changed),
        field_key!(RECORDS => write.records: Size(LIMITS.records), if write_shown),
        field_key!(INIT_CAP => write.init_cap: Size(LIMITS.init_cap), if write_shown),
        field_key!(FIXED_BUF => write.buf: Size(LIMITS.buf), if write_shown),
        field_key!(FLAVOURS => write.flavours: List("cursor flavour"), if write_shown),
        field_key!(WRITE_LEN => write.len: Size(LIMITS.wlen), if write_shown),
        field_key!(WRITE_SIZE => write.ws: Size(LIMITS.ws), if write_shown),
        field_key!(WRITE_CAP => write.cap: Size(LIMITS.wcap), if write_shown),
        field_key!(SINK => write.sink: Chunks, if write_shown),
        // A sweep: `sweep` names the axis, or two axes `a,b` (absent or
        // `off`: none) with each axis' default range; `from` and `to` set the
        // ranges, comma-separated pairs in the same order on two axes. The
        // ranges are rounded to powers of two here and fitted to the point
        // limits and the job-size rule once every key is read (see `decode`).
        Key {
            name: key::SWEEP,
            decode: |d, name, raw, p| p.sweep = d.sweep(name, raw),
            encode: |p| {
                p.sweep.map(|s| match s.across {
                    Some(a) => format!("{},{}", s.axis.id(), a.axis.id()),
                    None => s.axis.id().to_string(),
                })
            },
        },
        Key {
            name: key::FROM,
            decode: |d, name, raw, p| d.sweep_ends(name, raw, p),
            encode: |p| p.sweep.map(|s| sweep_pair(s.from, s.across.map(|a| a.from))),
        },
        Key {
            name: key::TO,
            decode: |d, name, raw, p| d.sweep_ends(name, raw, p),
            encode: |p| p.sweep.map(|s| sweep_pair(s.to, s.across.map(|a| a.to))),
        },
        // The result view: written only when it is not the one the link
        // implies (the sweep for a link with a sweep, else the single run), so
        // links without it keep their form and a sweep link opens the sweep.
        // Read after the sweep keys; `settle` applies the implied view when
        // absent.
        Key {
            name: key::VIEW,
            decode: |d, name, raw, _| d.view = d.choice(name, raw, "view", "using the view the link implies"),
            encode: |p| (p.view != View::implied(p)).then(|| p.view.id().to_string()),
        },
        // The timeline's step on screen, from 1; written only when not the first.
        field_key!(STEP => step: Count(LIMITS.step), if changed),
        // Embedded: the charts to show. Unknown ids are dropped with a notice;
        // with none known the link opens the whole page.
        field_key!(EMBED => embed: List("embeddable chart"), if changed),
        // Last, so a lesson's link reads as its experiment plus a name. An
        // unknown lesson is dropped with a notice; the experiment still runs.
        Key {
            name: key::LESSON,
            decode: |d, name, raw, p| p.lesson = d.choice(name, raw, "lesson", "no lesson selected"),
            encode: |p| p.lesson.map(|l| l.id().to_string()),
        },
    ]
};

/// One end of a sweep's range: `1K`, or `1K,8` on two axes.
fn sweep_pair(first: u64, across: Option<u64>) -> String {
    match across {
        Some(a) => format!("{},{}", format_size(first), format_size(a)),
        None => format_size(first),
    }
}

/// The write lab's keys are written when it is shown or its settings differ
/// from the defaults.
fn write_shown(p: &Params) -> bool {
    p.lab == Lab::Write || p.write != Params::default().write
}

/// The canonical link fragment (without `#`) for `p`.
pub fn encode(p: &Params) -> String {
    KEYS.iter()
        .filter_map(|k| (k.encode)(p).map(|v| format!("{}={v}", k.name)))
        .collect::<Vec<_>>()
        .join("&")
}

/// What the page's boot code needs to read presenter mode from a raw link
/// before the codec has loaded (web/src/shared/theme.ts, through the
/// generated `boot.gen.json`), to take presenter mode's looks before its
/// first paint: the key, the value the codec writes for on, and the longest
/// link the codec reads at all. The codec's reading decides moments later.
#[derive(Serialize)]
pub struct BootFacts {
    pub present_key: &'static str,
    pub present_on: &'static str,
    pub max_link_bytes: usize,
}

/// [`BootFacts`] of this codec.
pub fn boot_facts() -> BootFacts {
    BootFacts { present_key: key::PRESENT, present_on: on_off(true), max_link_bytes: MAX_LINK_BYTES }
}

/// Every key a link may carry, in canonical order.
pub fn known_keys() -> impl Iterator<Item = &'static str> {
    KEYS.iter().map(|k| k.name)
}

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
/// fails and never panics: every problem becomes a [`Notice`].
pub fn decode(link: &str) -> Decoded {
    let mut d = Decoder { notices: Vec::new(), defaults: Params::default(), view: None };
    let mut p = d.defaults.clone();
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
    for k in KEYS {
        let values: Vec<&str> = pairs.iter().filter(|(name, _)| name == k.name).map(|(_, v)| v.as_str()).collect();
        match values.as_slice() {
            [] => {}
            [one] => (k.decode)(&mut d, k.name, one, &mut p),
            _ => d.notice(k.name, format!("given {} times; using the default", values.len())),
        }
    }
    // Unknown keys are ignored, but a link with text and not one known key
    // cannot be read at all: say so rather than show the defaults silently.
    if !fragment.trim().is_empty() && !pairs.iter().any(|(name, _)| known_keys().any(|k| k == name)) {
        d.notice(
            "link",
            format!("nothing in '{}' is a BufLab setting (no known key such as v, len or cap); showing the defaults", shorten(fragment)),
        );
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
            d.notice(e.key, format!("{}; the link cannot be used as it is, using defaults", e.message));
            d.defaults
        }
    };
    Decoded { fragment: encode(&params), links: links(&params), params, notices: d.notices }
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
