//! The key table: every link key once, how it is read and how it is
//! written ([`KEYS`]), the canonical encoder, and the lists of keys the page
//! and the comparisons treat alike (display keys, sweep keys). The codec
//! (`mod.rs`) reads links with it; comparisons (`compare.rs`), nearest-key
//! notices (`nearest.rs`) and the page's links (`links.rs`) build on it.

use serde::Serialize;

use super::form::{self, on_off, Decoder};
use crate::model::size::shorten;
use crate::model::{format_size, key, Id, Lab, Params, View, LIMITS};

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
    pub(super) decode: fn(&mut Decoder, &'static str, &str, &mut Params),
    /// The key's value in the canonical link, or `None` when the key is left
    /// out (keys added after v1's first form appear only when they differ
    /// from their defaults, so older links keep their form).
    pub(super) encode: fn(&Params) -> Option<String>,
    /// The key's value for these params whether or not the canonical link
    /// writes it (`None`: it has none, as `from` without a sweep). A
    /// comparison link writes B's value of each key where it differs from
    /// A's (`compare.rs`).
    pub(super) value: fn(&Params) -> Option<String>,
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
            value: |p| Some($form.write(&p.$($field).+)),
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
            value: |_| Some(LINK_VERSION.to_string()),
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
            encode: sweep_axes,
            value: |p| Some(sweep_axes(p).unwrap_or_else(|| "off".into())),
        },
        Key {
            name: key::FROM,
            decode: |d, name, raw, p| d.sweep_ends(name, raw, p),
            encode: |p| p.sweep.map(|s| sweep_pair(s.from, s.across.map(|a| a.from))),
            value: |p| p.sweep.map(|s| sweep_pair(s.from, s.across.map(|a| a.from))),
        },
        Key {
            name: key::TO,
            decode: |d, name, raw, p| d.sweep_ends(name, raw, p),
            encode: |p| p.sweep.map(|s| sweep_pair(s.to, s.across.map(|a| a.to))),
            value: |p| p.sweep.map(|s| sweep_pair(s.to, s.across.map(|a| a.to))),
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
            value: |p| Some(p.view.id().to_string()),
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
            value: |p| p.lesson.map(|l| l.id().to_string()),
        },
    ]
};

/// The `sweep` key's value: an axis, or two `a,b`; `None` without a sweep.
fn sweep_axes(p: &Params) -> Option<String> {
    p.sweep.map(|s| match s.across {
        Some(a) => format!("{},{}", s.axis.id(), a.axis.id()),
        None => s.axis.id().to_string(),
    })
}

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
