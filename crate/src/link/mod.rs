//! The link codec: a URL fragment to [`Params`] and back.
//!
//! Link format v1 is a product contract: keys keep their meaning forever, new
//! keys may be added, unknown keys are ignored. One table, [`KEYS`], drives
//! everything: decoding (each key's parser), encoding (each key's formatter,
//! which also says when the key is left out) and the list of known keys. A
//! new key is one row here, one field in the model, and its limit in
//! `model::limits`.
//!
//! [`decode`] reads an untrusted fragment and never fails or panics: a value
//! that is missing, malformed or out of range is replaced (defaulted or
//! clamped) and a [`Notice`] names the key and what was used instead. The
//! result always passes `Params::check`, which `finish` runs in every build.
//!
//! This module depends on the model only.

use serde::Serialize;

use crate::model::limits::{max_streams, pow2_floor, streams_cap_reason, Bounds};
use crate::model::params::sweep_point_count;
use crate::model::size::shorten;
use crate::model::{
    format_size, key, parse_size, Across, ChunkModel, Id, Lab, LenRange, ParamError, Params, Sweep, SweepAxis, View,
    LIMITS, MAX_GRID_POINTS, MAX_SWEEP_POINTS, PRESETS,
};

/// The link format version this build writes (and the only one it reads).
pub const LINK_VERSION: u32 = 1;

/// A fragment longer than this is refused whole (untrusted input).
pub const MAX_LINK_BYTES: usize = 8 * 1024;

/// Keys that never change a result: presenter mode, the result view shown,
/// the timeline's step, the lesson a link was opened from, predict-then-reveal, and where `sys` came from (a result
/// follows `sys` itself). Two links that differ only in these describe the
/// same experiment (the page's baseline comparison and "settings changed
/// since the lesson" both rely on this list).
pub const DISPLAY_KEYS: &[&str] = &[key::PRESENT, key::VIEW, key::STEP, key::LESSON, key::SYS_SOURCE, key::EMBED, key::PREDICT];

/// Keys that say what a sweep runs, never what a single run measures: a
/// single run's link (its report, exports and native command) leaves them
/// out, and only the sweep view's link carries them.
pub const SWEEP_KEYS: &[&str] = &[key::SWEEP, key::FROM, key::TO];

/// One link key: how it is read and how it is written.
pub struct Key {
    pub name: &'static str,
    /// Reads the key's raw (percent-decoded) value into the params, adding a
    /// notice for anything it could not use as given.
    decode: fn(&mut Decoder, &str, &mut Params),
    /// The key's value in the canonical link, or `None` when the key is left
    /// out (keys added after v1's first form appear only when they differ
    /// from their defaults, so older links keep their form).
    encode: fn(&Params) -> Option<String>,
}

/// Every link key, in the order the canonical link writes them.
pub const KEYS: &[Key] = &[
    Key {
        name: key::VERSION,
        decode: |d, raw, _| {
            if raw.trim() != LINK_VERSION.to_string() {
                d.notice(
                    key::VERSION,
                    format!("link version '{}' is not {LINK_VERSION}; reading it as {LINK_VERSION}", shorten(raw)),
                );
            }
        },
        encode: |_| Some(LINK_VERSION.to_string()),
    },
    Key {
        name: key::LEN,
        decode: |d, raw, p| p.len = d.size(key::LEN, raw, LIMITS.len, d.defaults.len),
        encode: |p| Some(format_size(p.len)),
    },
    Key {
        name: key::CHUNK,
        decode: |d, raw, p| p.chunk = d.chunk(key::CHUNK, raw, d.defaults.chunk),
        encode: |p| Some(format_chunk(p.chunk)),
    },
    Key {
        name: key::SEED,
        decode: |d, raw, p| p.seed = d.count(key::SEED, raw, LIMITS.seed, d.defaults.seed),
        encode: |p| Some(p.seed.to_string()),
    },
    Key {
        name: key::CAP,
        decode: |d, raw, p| p.cap = d.size(key::CAP, raw, LIMITS.cap, d.defaults.cap),
        encode: |p| Some(format_size(p.cap)),
    },
    Key {
        name: key::READ_SIZE,
        decode: |d, raw, p| p.rs = d.size(key::READ_SIZE, raw, LIMITS.rs, d.defaults.rs),
        encode: |p| Some(format_size(p.rs)),
    },
    Key {
        name: key::SYS,
        decode: |d, raw, p| p.sys = d.count(key::SYS, raw, LIMITS.sys, d.defaults.sys),
        encode: |p| Some(p.sys.to_string()),
    },
    // The cost per KiB a source read returns, on top of `sys`.
    Key {
        name: key::SYS_KIB,
        decode: |d, raw, p| p.sys_kib = d.count(key::SYS_KIB, raw, LIMITS.sys_kib, d.defaults.sys_kib),
        encode: |p| changed(p, |q| q.sys_kib).then(|| p.sys_kib.to_string()),
    },
    // Where `sys` came from; written only when it was calibrated, so links
    // with a hand-set `sys` keep their form.
    Key {
        name: key::SYS_SOURCE,
        decode: |d, raw, p| {
            p.sys_source = d.choice(key::SYS_SOURCE, raw, "sys source", "sys counts as set by hand").unwrap_or_default()
        },
        encode: |p| changed(p, |q| q.sys_source).then(|| p.sys_source.id().to_string()),
    },
    Key {
        name: key::READERS,
        decode: |d, raw, p| p.readers = d.list(key::READERS, raw, &d.defaults.readers.clone(), "reader"),
        encode: |p| Some(ids(&p.readers)),
    },
    Key {
        name: key::WORKLOAD,
        decode: |d, raw, p| {
            let default = d.defaults.workload;
            p.workload = d.choice(key::WORKLOAD, raw, "workload", &format!("using {}", default.id())).unwrap_or(default)
        },
        encode: |p| Some(p.workload.id().to_string()),
    },
    Key {
        name: key::STREAMS,
        decode: |d, raw, p| p.streams = d.count(key::STREAMS, raw, LIMITS.streams, d.defaults.streams),
        encode: |p| changed(p, |q| q.streams).then(|| p.streams.to_string()),
    },
    Key {
        name: key::POOL,
        decode: |d, raw, p| p.pool = d.flag(key::POOL, raw, d.defaults.pool),
        encode: |p| changed(p, |q| q.pool).then(|| on_off(p.pool).into()),
    },
    Key {
        name: key::REUSE,
        decode: |d, raw, p| p.reuse = d.flag(key::REUSE, raw, d.defaults.reuse),
        encode: |p| changed(p, |q| q.reuse).then(|| on_off(p.reuse).into()),
    },
    Key {
        name: key::LINE,
        decode: |d, raw, p| p.line = d.len_range(key::LINE, raw, LIMITS.line, d.defaults.line),
        encode: |p| changed(p, |q| q.line).then(|| format_len_range(p.line)),
    },
    Key {
        name: key::FRAME,
        decode: |d, raw, p| p.frame = d.len_range(key::FRAME, raw, LIMITS.frame, d.defaults.frame),
        encode: |p| changed(p, |q| q.frame).then(|| format_len_range(p.frame)),
    },
    Key {
        name: key::NUL,
        decode: |d, raw, p| p.nul = d.size(key::NUL, raw, LIMITS.nul, d.defaults.nul),
        encode: |p| changed(p, |q| q.nul).then(|| format_size(p.nul)),
    },
    // How often an async reader's source is not yet ready: a percentage of
    // source reads, each preceded by at most one `Pending` (LIMITS.pend says
    // why that bounds every link).
    Key {
        name: key::PEND,
        decode: |d, raw, p| p.pend = d.count(key::PEND, raw.trim().trim_end_matches('%'), LIMITS.pend, d.defaults.pend),
        encode: |p| changed(p, |q| q.pend).then(|| p.pend.to_string()),
    },
    // Arrival in time: the pieces' rate in bytes per second (`off` or 0:
    // none, each read gets one fresh piece, as links without the key
    // always meant), and the application's work per piece received.
    Key {
        name: key::RATE,
        decode: |d, raw, p| p.rate = d.rate(raw),
        encode: |p| (p.rate != 0).then(|| format_size(p.rate)),
    },
    Key {
        name: key::WORK,
        decode: |d, raw, p| p.work = d.count(key::WORK, raw, LIMITS.work, d.defaults.work),
        encode: |p| changed(p, |q| q.work).then(|| p.work.to_string()),
    },
    Key {
        name: key::PRESENT,
        decode: |d, raw, p| p.present = d.flag(key::PRESENT, raw, d.defaults.present),
        encode: |p| changed(p, |q| q.present).then(|| on_off(p.present).into()),
    },
    Key {
        name: key::PREDICT,
        decode: |d, raw, p| p.predict = d.flag(key::PREDICT, raw, d.defaults.predict),
        encode: |p| changed(p, |q| q.predict).then(|| on_off(p.predict).into()),
    },
    // The write lab: `lab=write` when it is shown (absent means the read lab,
    // so older links keep their meaning); its keys whenever it is shown or
    // its settings differ from the defaults, so switching labs keeps both.
    Key {
        name: key::LAB,
        decode: |d, raw, p| {
            let default = d.defaults.lab;
            p.lab = d.choice(key::LAB, raw, "lab", &format!("using {}", default.id())).unwrap_or(default)
        },
        encode: |p| (p.lab == Lab::Write).then(|| Lab::Write.id().to_string()),
    },
    Key {
        name: key::RECORDS,
        decode: |d, raw, p| p.write.records = d.size(key::RECORDS, raw, LIMITS.records, d.defaults.write.records),
        encode: |p| write_shown(p).then(|| format_size(p.write.records)),
    },
    Key {
        name: key::INIT_CAP,
        decode: |d, raw, p| p.write.init_cap = d.size(key::INIT_CAP, raw, LIMITS.init_cap, d.defaults.write.init_cap),
        encode: |p| write_shown(p).then(|| format_size(p.write.init_cap)),
    },
    Key {
        name: key::FIXED_BUF,
        decode: |d, raw, p| p.write.buf = d.size(key::FIXED_BUF, raw, LIMITS.buf, d.defaults.write.buf),
        encode: |p| write_shown(p).then(|| format_size(p.write.buf)),
    },
    Key {
        name: key::FLAVOURS,
        decode: |d, raw, p| {
            p.write.flavours = d.list(key::FLAVOURS, raw, &d.defaults.write.flavours.clone(), "cursor flavour")
        },
        encode: |p| write_shown(p).then(|| ids(&p.write.flavours)),
    },
    Key {
        name: key::WRITE_LEN,
        decode: |d, raw, p| p.write.len = d.size(key::WRITE_LEN, raw, LIMITS.wlen, d.defaults.write.len),
        encode: |p| write_shown(p).then(|| format_size(p.write.len)),
    },
    Key {
        name: key::WRITE_SIZE,
        decode: |d, raw, p| p.write.ws = d.size(key::WRITE_SIZE, raw, LIMITS.ws, d.defaults.write.ws),
        encode: |p| write_shown(p).then(|| format_size(p.write.ws)),
    },
    Key {
        name: key::WRITE_CAP,
        decode: |d, raw, p| p.write.cap = d.size(key::WRITE_CAP, raw, LIMITS.wcap, d.defaults.write.cap),
        encode: |p| write_shown(p).then(|| format_size(p.write.cap)),
    },
    Key {
        name: key::SINK,
        decode: |d, raw, p| p.write.sink = d.chunk(key::SINK, raw, d.defaults.write.sink),
        encode: |p| write_shown(p).then(|| format_chunk(p.write.sink)),
    },
    // A sweep: `sweep` names the axis, or two axes `a,b` (absent or `off`:
    // none) with each axis' default range; `from` and `to` set the ranges,
    // comma-separated pairs in the same order on two axes. The ranges are
    // rounded to powers of two here and fitted to the point limits and the
    // job-size rule once every key is read (see `decode`).
    Key {
        name: key::SWEEP,
        decode: |d, raw, p| p.sweep = d.sweep(raw),
        encode: |p| {
            p.sweep.map(|s| match s.across {
                Some(a) => format!("{},{}", s.axis.id(), a.axis.id()),
                None => s.axis.id().to_string(),
            })
        },
    },
    Key {
        name: key::FROM,
        decode: |d, raw, p| d.sweep_ends(key::FROM, raw, p),
        encode: |p| p.sweep.map(|s| sweep_pair(s.from, s.across.map(|a| a.from))),
    },
    Key {
        name: key::TO,
        decode: |d, raw, p| d.sweep_ends(key::TO, raw, p),
        encode: |p| p.sweep.map(|s| sweep_pair(s.to, s.across.map(|a| a.to))),
    },
    // The result view: written only when it is not the one the link implies
    // (the sweep for a link with a sweep, else the single run), so links
    // without it keep their form and a sweep link opens the sweep. Read
    // after the sweep keys; `settle` applies the implied view when absent.
    Key {
        name: key::VIEW,
        decode: |d, raw, _| d.view = d.choice(key::VIEW, raw, "view", "using the view the link implies"),
        encode: |p| (p.view != View::implied(p)).then(|| p.view.id().to_string()),
    },
    // The timeline's step on screen, from 1; written only when it is not the first.
    Key {
        name: key::STEP,
        decode: |d, raw, p| p.step = d.count(key::STEP, raw, LIMITS.step, d.defaults.step),
        encode: |p| changed(p, |q| q.step).then(|| p.step.to_string()),
    },
    // Embedded: the charts to show. Unknown ids are dropped with a notice;
    // with none known the link opens the whole page.
    Key {
        name: key::EMBED,
        decode: |d, raw, p| p.embed = d.list(key::EMBED, raw, &[], "embeddable chart"),
        encode: |p| (!p.embed.is_empty()).then(|| ids(&p.embed)),
    },
    // Last, so a lesson's link reads as its experiment plus a name. An
    // unknown lesson is dropped with a notice; the experiment still runs.
    Key {
        name: key::LESSON,
        decode: |d, raw, p| p.lesson = d.choice(key::LESSON, raw, "lesson", "no lesson selected"),
        encode: |p| p.lesson.map(|l| l.id().to_string()),
    },
];

/// One end of a sweep's range: `1K`, or `1K,8` on two axes.
fn sweep_pair(first: u64, across: Option<u64>) -> String {
    match across {
        Some(a) => format!("{},{}", format_size(first), format_size(a)),
        None => format_size(first),
    }
}

/// True when `field` of `p` differs from the default's.
fn changed<T: PartialEq>(p: &Params, field: impl Fn(&Params) -> T) -> bool {
    field(p) != field(&Params::default())
}

/// The write lab's keys are written when it is shown or its settings differ
/// from the defaults.
fn write_shown(p: &Params) -> bool {
    p.lab == Lab::Write || p.write != Params::default().write
}

fn ids<T: Id>(list: &[T]) -> String {
    list.iter().map(|t| t.id()).collect::<Vec<_>>().join(",")
}

fn on_off(flag: bool) -> &'static str {
    if flag {
        "on"
    } else {
        "off"
    }
}

fn format_len_range(r: LenRange) -> String {
    if r.min == r.max {
        format_size(r.min)
    } else {
        format!("{}-{}", format_size(r.min), format_size(r.max))
    }
}

/// A chunk model as a link writes it: a preset's name, `a-b`, `k`, `file`, `pipe`.
pub fn format_chunk(c: ChunkModel) -> String {
    if let Some(name) = c.preset_name() {
        return name.to_string();
    }
    match c {
        ChunkModel::Uniform { min, max } => format!("{}-{}", format_size(min as u64), format_size(max as u64)),
        ChunkModel::Fixed { size } => format_size(size as u64),
        ChunkModel::File => "file".into(),
        ChunkModel::Pipe => "pipe".into(),
    }
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

/// A replaced or ignored link value, shown on the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Notice {
    /// The link key concerned ("link" for the fragment as a whole).
    pub key: String,
    pub message: String,
}

/// What a link decodes to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Decoded {
    pub params: Params,
    pub notices: Vec<Notice>,
    /// The canonical fragment for `params`.
    pub fragment: String,
}

/// The parsers the key table uses, and the notices they leave.
pub struct Decoder {
    notices: Vec<Notice>,
    defaults: Params,
    /// The `view` the link named, if it named a known one.
    view: Option<View>,
}

impl Decoder {
    fn notice(&mut self, key: &str, message: String) {
        self.notices.push(Notice { key: key.to_string(), message });
    }

    /// A size within `bounds`: clamped when out of range, `default` when
    /// unreadable.
    fn size(&mut self, key: &str, raw: &str, bounds: Bounds, default: u64) -> u64 {
        match parse_size(raw) {
            Ok(Some(v)) if bounds.contains(v) => v,
            Ok(parsed) => {
                let v = parsed.map_or(bounds.max, |v| bounds.clamp(v));
                let below = parsed.is_some_and(|p| p < bounds.min);
                let (why, limit, edge) = if below { ("below", "minimum", bounds.min) } else { ("above", "maximum", bounds.max) };
                self.notice(
                    key,
                    format!("{} is {why} the {limit} {}; using {}", shorten(raw), format_size(edge), format_size(v)),
                );
                v
            }
            Err(why) => {
                self.notice(key, format!("{why}; using {}", format_size(default)));
                default
            }
        }
    }

    /// A plain count (no unit suffix) within `bounds`.
    fn count(&mut self, key: &str, raw: &str, bounds: Bounds, default: u64) -> u64 {
        if raw.trim().chars().any(|c| !c.is_ascii_digit()) || raw.trim().is_empty() {
            self.notice(key, format!("'{}' is not a whole number; using {default}", shorten(raw)));
            return default;
        }
        let v = raw.trim().parse::<u64>().unwrap_or(u64::MAX);
        if bounds.contains(v) {
            return v;
        }
        let used = bounds.clamp(v);
        self.notice(key, format!("{} is outside {}..={}; using {used}", shorten(raw), bounds.min, bounds.max));
        used
    }

    /// The `rate` key: bytes per second with an optional `/s` (`4M`,
    /// `4M/s`), or `off`/`0` for no arrival in time.
    fn rate(&mut self, raw: &str) -> u64 {
        let t = raw.trim().to_ascii_lowercase();
        let t = t.strip_suffix("/s").unwrap_or(&t);
        if t == "off" || t == "0" {
            return 0;
        }
        if let Err(why) = parse_size(t) {
            self.notice(key::RATE, format!("{why}; using off (no arrival in time)"));
            return 0;
        }
        self.size(key::RATE, t, LIMITS.rate, LIMITS.rate.min)
    }

    /// A chunk model (`chunk`, and the sink's `sink`).
    fn chunk(&mut self, key: &str, raw: &str, default: ChunkModel) -> ChunkModel {
        let t = raw.trim().to_ascii_lowercase();
        if let Some(c) = ChunkModel::preset(&t) {
            return c;
        }
        match t.as_str() {
            "file" => return ChunkModel::File,
            "pipe" => return ChunkModel::Pipe,
            _ => {}
        }
        let bounds = LIMITS.chunk;
        if let Some((a, b)) = t.split_once('-') {
            if parse_size(a).is_ok() && parse_size(b).is_ok() {
                let lo = self.size(key, a, bounds, bounds.min) as usize;
                let hi = self.size(key, b, bounds, bounds.min) as usize;
                if lo > hi {
                    self.notice(key, format!("range {} is reversed; using {hi}-{lo}", shorten(raw)));
                    return ChunkModel::Uniform { min: hi, max: lo };
                }
                return ChunkModel::Uniform { min: lo, max: hi };
            }
        } else if parse_size(&t).is_ok() {
            let size = self.size(key, &t, bounds, bounds.min) as usize;
            return ChunkModel::Fixed { size };
        }
        let names: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
        self.notice(
            key,
            format!(
                "'{}' is not a chunk model (a-b, k, file, pipe, {}); using {}",
                shorten(raw),
                names.join(", "),
                format_chunk(default)
            ),
        );
        default
    }

    /// A comma-separated list of ids, repeats dropped. Unknown names are
    /// ignored with a notice; a list with no known name falls back to
    /// `default`.
    fn list<T: Id>(&mut self, key: &str, raw: &str, default: &[T], what: &str) -> Vec<T> {
        let mut out = Vec::new();
        let mut unknown = Vec::new();
        for name in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match T::from_id(&name.to_ascii_lowercase()) {
                Some(k) if !out.contains(&k) => out.push(k),
                Some(_) => {}
                None => unknown.push(shorten(name)),
            }
        }
        let known = T::ids().join(", ");
        if out.is_empty() {
            self.notice(
                key,
                format!(
                    "'{}' names no known {what} (known: {known}); using {}",
                    shorten(raw),
                    if default.is_empty() { "none".to_string() } else { ids(default) }
                ),
            );
            return default.to_vec();
        }
        if !unknown.is_empty() {
            self.notice(key, format!("unknown {what} '{}' ignored (known: {known})", unknown.join(",")));
        }
        out
    }

    /// One id (trimmed, any case); `None` with a notice when it names
    /// nothing known.
    fn choice<T: Id>(&mut self, key: &str, raw: &str, what: &str, otherwise: &str) -> Option<T> {
        let known = T::ids().join(", ");
        self.choice_of(key, raw, what, &known, otherwise)
    }

    fn choice_of<T: Id>(&mut self, key: &str, raw: &str, what: &str, known: &str, otherwise: &str) -> Option<T> {
        let found = T::from_id(&raw.trim().to_ascii_lowercase());
        if found.is_none() {
            self.notice(key, format!("'{}' is not a {what} (known: {known}); {otherwise}", shorten(raw)));
        }
        found
    }

    /// on/off (also 1/0, true/false, yes/no).
    fn flag(&mut self, key: &str, raw: &str, default: bool) -> bool {
        match raw.trim().to_ascii_lowercase().as_str() {
            "on" | "1" | "true" | "yes" => true,
            "off" | "0" | "false" | "no" => false,
            _ => {
                self.notice(key, format!("'{}' is not on or off; using {}", shorten(raw), on_off(default)));
                default
            }
        }
    }

    /// A length range `a-b` (or a single length `k`, meaning `k-k`) of sizes
    /// within `bounds`; a reversed range is swapped, with a notice.
    fn len_range(&mut self, key: &str, raw: &str, bounds: Bounds, default: LenRange) -> LenRange {
        let t = raw.trim();
        let (a, b) = t.split_once('-').unwrap_or((t, t));
        if parse_size(a).is_err() || parse_size(b).is_err() {
            self.notice(
                key,
                format!("'{}' is not a length range (a-b, such as 64-1K); using {}", shorten(raw), format_len_range(default)),
            );
            return default;
        }
        let lo = self.size(key, a, bounds, default.min);
        let hi = if a == b { lo } else { self.size(key, b, bounds, default.max) };
        if lo > hi {
            let swapped = LenRange { min: hi, max: lo };
            self.notice(key, format!("range {} is reversed; using {}", shorten(raw), format_len_range(swapped)));
            return swapped;
        }
        LenRange { min: lo, max: hi }
    }

    /// The `sweep` key: one axis or two, comma-separated, each with its
    /// default range.
    fn sweep(&mut self, raw: &str) -> Option<Sweep> {
        let a = raw.trim().to_ascii_lowercase();
        if a == "off" || a.is_empty() {
            return None;
        }
        let names: Vec<&str> = a.split(',').map(str::trim).collect();
        if names.len() > 2 {
            self.notice(key::SWEEP, format!("'{}': a sweep has one or two axes; using the first two", shorten(raw)));
        }
        let known = format!("{}, off", SweepAxis::ids().join(", "));
        let axis: SweepAxis = self.choice_of(key::SWEEP, names[0], "sweep axis", &known, "no sweep")?;
        let (from, to) = axis.default_range();
        let mut sweep = Sweep::one(axis, from, to);
        let Some(second) = names.get(1).filter(|n| !n.is_empty()) else { return Some(sweep) };
        let across: Option<SweepAxis> =
            self.choice_of(key::SWEEP, second, "sweep axis", &known, &format!("sweeping {} alone", axis.id()));
        match across {
            Some(b) if b == axis => {
                self.notice(key::SWEEP, format!("{} twice; sweeping it alone", axis.id()));
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

    /// A size within `bounds`, rounded to the nearest power of two (a tie
    /// goes down), with a notice when rounded.
    fn pow2_size(&mut self, key: &str, raw: &str, bounds: Bounds, default: u64) -> u64 {
        let v = self.size(key, raw, bounds, default);
        if v.is_power_of_two() {
            return v;
        }
        let down = pow2_floor(v);
        let up = down * 2;
        let rounded = if v - down <= up - v { down } else { up };
        self.notice(key, format!("{} is not a power of two; using {}", format_size(v), format_size(rounded)));
        rounded
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
            [one] => (k.decode)(&mut d, one, &mut p),
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
    Decoded { fragment: encode(&params), params, notices: d.notices }
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
