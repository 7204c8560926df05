//! A value's form in a link: how each kind of value (a size, a count, a
//! flag, a chunk model, a list of ids, …) is read from untrusted text, with a
//! [`Notice`] for whatever had to be replaced, and written back. A row of the
//! key table names its field's [`Form`]; the parsers are [`Decoder`]'s
//! methods, which the keys read by hand (the sweep's) use too.

use serde::Serialize;

use crate::model::limits::{pow2_floor, Bounds};
use crate::model::size::shorten;
use crate::model::{format_size, parse_size, ChunkModel, Id, LenRange, Params, View, LIMITS, PRESETS};

/// A replaced or ignored link value, shown on the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Notice {
    /// The link key concerned ("link" for the fragment as a whole).
    pub key: String,
    pub message: String,
}

/// The parsers the key table uses, and the notices they leave.
pub struct Decoder {
    pub(super) notices: Vec<Notice>,
    pub(super) defaults: Params,
    /// The `view` the link named, if it named a known one.
    pub(super) view: Option<View>,
    /// Put before every key a notice names: `b.` while B's keys are read.
    pub(super) prefix: &'static str,
}

impl Decoder {
    pub(super) fn new(defaults: Params) -> Decoder {
        Decoder { notices: Vec::new(), defaults, view: None, prefix: "" }
    }

    pub(super) fn notice(&mut self, key: &str, message: String) {
        self.notices.push(Notice { key: format!("{}{key}", self.prefix), message });
    }

    /// A size within `bounds`: clamped when out of range, `default` when
    /// unreadable.
    pub(super) fn size(&mut self, key: &str, raw: &str, bounds: Bounds, default: u64) -> u64 {
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
    pub(super) fn count(&mut self, key: &str, raw: &str, bounds: Bounds, default: u64) -> u64 {
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

    /// A chunk model (`chunk`, and the sink's `sink`).
    pub(super) fn chunk(&mut self, key: &str, raw: &str, default: ChunkModel) -> ChunkModel {
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
    pub(super) fn list<T: Id>(&mut self, key: &str, raw: &str, default: &[T], what: &str) -> Vec<T> {
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
    pub(super) fn choice<T: Id>(&mut self, key: &str, raw: &str, what: &str, otherwise: &str) -> Option<T> {
        let known = T::ids().join(", ");
        self.choice_of(key, raw, what, &known, otherwise)
    }

    pub(super) fn choice_of<T: Id>(&mut self, key: &str, raw: &str, what: &str, known: &str, otherwise: &str) -> Option<T> {
        let found = T::from_id(&raw.trim().to_ascii_lowercase());
        if found.is_none() {
            self.notice(key, format!("'{}' is not a {what} (known: {known}); {otherwise}", shorten(raw)));
        }
        found
    }

    /// on/off (also 1/0, true/false, yes/no).
    pub(super) fn flag(&mut self, key: &str, raw: &str, default: bool) -> bool {
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
    pub(super) fn len_range(&mut self, key: &str, raw: &str, bounds: Bounds, default: LenRange) -> LenRange {
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

    /// A size within `bounds`, rounded to the nearest power of two (a tie
    /// goes down), with a notice when rounded.
    pub(super) fn pow2_size(&mut self, key: &str, raw: &str, bounds: Bounds, default: u64) -> u64 {
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
}

// ---------------------------------------------------------------------------
// Writing

pub(super) fn ids<T: Id>(list: &[T]) -> String {
    list.iter().map(|t| t.id()).collect::<Vec<_>>().join(",")
}

pub(super) fn on_off(flag: bool) -> &'static str {
    if flag {
        "on"
    } else {
        "off"
    }
}

pub(super) fn format_len_range(r: LenRange) -> String {
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

// ---------------------------------------------------------------------------
// Forms

/// A value's form in a link: its parser and the formatter that is its inverse.
pub trait Form<T> {
    fn read(&self, d: &mut Decoder, key: &str, raw: &str, default: T) -> T;
    fn write(&self, value: &T) -> String;
}

/// A size with an optional unit (`64`, `8K`, `1M`) within bounds.
pub struct Size(pub Bounds);

impl Form<u64> for Size {
    fn read(&self, d: &mut Decoder, key: &str, raw: &str, default: u64) -> u64 {
        d.size(key, raw, self.0, default)
    }
    fn write(&self, value: &u64) -> String {
        format_size(*value)
    }
}

/// A size per second within bounds (`4M`, `4M/s`), or `off` (or `0`): 0.
/// An unreadable value is off, with a notice.
pub struct SizeOrOff(pub Bounds);

impl Form<u64> for SizeOrOff {
    fn read(&self, d: &mut Decoder, key: &str, raw: &str, _default: u64) -> u64 {
        let t = raw.trim().to_ascii_lowercase();
        let t = t.strip_suffix("/s").unwrap_or(&t);
        if t == "off" || t == "0" {
            return 0;
        }
        if let Err(why) = crate::model::parse_size(t) {
            d.notice(key, format!("{why}; using off"));
            return 0;
        }
        d.size(key, t, self.0, self.0.min)
    }
    /// 0 is written `off` (A never writes it; B may turn A's rate off: `b.rate=off`).
    fn write(&self, value: &u64) -> String {
        if *value == 0 { "off".to_string() } else { format_size(*value) }
    }
}

/// A whole number without a unit, within bounds.
pub struct Count(pub Bounds);

impl Form<u64> for Count {
    fn read(&self, d: &mut Decoder, key: &str, raw: &str, default: u64) -> u64 {
        d.count(key, raw, self.0, default)
    }
    fn write(&self, value: &u64) -> String {
        value.to_string()
    }
}

/// A whole-number percentage, within bounds; the `%` sign may be given.
pub struct Percent(pub Bounds);

impl Form<u64> for Percent {
    fn read(&self, d: &mut Decoder, key: &str, raw: &str, default: u64) -> u64 {
        d.count(key, raw.trim().trim_end_matches('%'), self.0, default)
    }
    fn write(&self, value: &u64) -> String {
        value.to_string()
    }
}

/// on or off.
pub struct Flag;

impl Form<bool> for Flag {
    fn read(&self, d: &mut Decoder, key: &str, raw: &str, default: bool) -> bool {
        d.flag(key, raw, default)
    }
    fn write(&self, value: &bool) -> String {
        on_off(*value).into()
    }
}

/// A chunk model: a preset's name, `a-b`, `k`, `file` or `pipe`.
pub struct Chunks;

impl Form<ChunkModel> for Chunks {
    fn read(&self, d: &mut Decoder, key: &str, raw: &str, default: ChunkModel) -> ChunkModel {
        d.chunk(key, raw, default)
    }
    fn write(&self, value: &ChunkModel) -> String {
        format_chunk(*value)
    }
}

/// A length range `a-b` (or `k`) of sizes within bounds.
pub struct Lengths(pub Bounds);

impl Form<LenRange> for Lengths {
    fn read(&self, d: &mut Decoder, key: &str, raw: &str, default: LenRange) -> LenRange {
        d.len_range(key, raw, self.0, default)
    }
    fn write(&self, value: &LenRange) -> String {
        format_len_range(*value)
    }
}

/// A comma-separated list of ids; the name says what one id is.
pub struct List(pub &'static str);

impl<T: Id> Form<Vec<T>> for List {
    fn read(&self, d: &mut Decoder, key: &str, raw: &str, default: Vec<T>) -> Vec<T> {
        d.list(key, raw, &default, self.0)
    }
    fn write(&self, value: &Vec<T>) -> String {
        ids(value)
    }
}

/// One id: what an id is, and what the notice for an unknown one says is
/// used instead (`None`: "using" the default's id).
pub struct Choice(pub &'static str, pub Option<&'static str>);

impl<T: Id> Form<T> for Choice {
    fn read(&self, d: &mut Decoder, key: &str, raw: &str, default: T) -> T {
        let otherwise = self.1.map_or_else(|| format!("using {}", default.id()), str::to_string);
        d.choice(key, raw, self.0, &otherwise).unwrap_or(default)
    }
    fn write(&self, value: &T) -> String {
        value.id().to_string()
    }
}
