//! How a field's value is read from a link and written back: the forms a
//! row of the key table names, each one of [`Decoder`]'s parsers and the
//! formatter that is its inverse.

use super::{format_chunk, format_len_range, ids, on_off, Decoder};
use crate::model::limits::Bounds;
use crate::model::{format_size, ChunkModel, Id, LenRange};

/// A value's form in a link.
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
    fn write(&self, value: &u64) -> String {
        format_size(*value)
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
