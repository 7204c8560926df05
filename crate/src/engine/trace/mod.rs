//! A program's own reads, from its `strace` log, and what a buffer would
//! have made of them.
//!
//! [`Parser`] reads the text of
//! `strace -f -e trace=openat,read,readv,pread64,recvfrom,recvmsg -o LOG PROGRAM`
//! (with or without `-tt`/`-ttt`/`-r`, `-T`, `-y`, `-C`; other calls are
//! counted by name and passed over) in chunks of any size: a line may be
//! split across chunks, and nothing but the current line and the bounded
//! tables of [`fds`] is kept, so a log of any length reads in bounded
//! memory ([`TRACE`] holds every bound). Feeding can stop between any two
//! chunks ([`Parser::finish`] with `complete: false`). Each line is one of:
//!
//! - a call (`read(3, "…"..., 4096) = 4096`), counted by name; a read goes
//!   to its descriptor's figures, an `openat`/`close`/`dup`/`pipe`/`socket`
//!   tells which file a number refers to;
//! - half of a call `-f` split (`<unfinished ...>`, `<... read resumed>`):
//!   the first half waits per process, and the two are read as one call;
//! - a signal (`--- SIGCHLD …`), an exit (`+++ exited with 0 +++`),
//!   strace's own words, a row of its `-c`/`-C` count;
//! - anything else: skipped, counted, and the first few quoted.
//!
//! A JSON input (its first character `{`) is read as `buflab real --json`'s
//! report, one descriptor per real run.
//!
//! [`Trace::replay`] (in [`replay`]) runs a descriptor's request sequence
//! through the engine's own readers.

pub mod fds;
pub mod line;
pub mod replay;

pub use replay::Trace;

use std::collections::{HashMap, HashSet};
use std::io::{self, Read};

use fds::{ReadCall, ReadResult, Run, Table, MAX_RW, READ_CALLS};
use line::{Body, Outcome, Stamp};

use crate::model::real::RealReport;
use crate::model::trace::{
    Descriptor, LogKind, LogShape, NamedBy, NamedCount, RealFigures, Sequence, Sizes, SkipReason, Skipped, SkippedLine,
    SourceKind, SummaryRow, TraceProgress, TraceReport, Unfinished,
};
use crate::model::{RealSource, TRACE};

/// The first half of a split call, waiting for its second.
#[derive(Debug)]
struct Pending {
    name: Vec<u8>,
    args: Vec<u8>,
    time: Option<f64>,
}

/// Turns a line's time into seconds from the log's first.
#[derive(Debug, Default)]
struct Times {
    base: Option<f64>,
    /// The last absolute time (with days added), to see midnight pass.
    last: f64,
    day: f64,
    /// `-r`: the gaps so far.
    relative: f64,
}

impl Times {
    fn at(&mut self, stamp: Stamp) -> f64 {
        let absolute = match stamp {
            Stamp::Relative(gap) => {
                self.relative += gap;
                return self.relative;
            }
            Stamp::Epoch(t) => t,
            Stamp::OfDay(t) => {
                let mut t = t + self.day;
                if self.base.is_some() && t < self.last - 43_200.0 {
                    self.day += 86_400.0;
                    t += 86_400.0;
                }
                t
            }
        };
        self.last = absolute;
        absolute - *self.base.get_or_insert(absolute)
    }
}

/// A line gathered across chunks. Past [`TRACE`]`.line_bytes` it keeps
/// only the first `string_bytes` of each quoted string (a read's data),
/// and past that too it keeps nothing more and calls the line too long.
#[derive(Debug, Default)]
struct Gathered {
    bytes: Vec<u8>,
    /// Set once the line outgrew `line_bytes`: the strings are being cut.
    cutting: Option<Cutter>,
    too_long: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct Cutter {
    in_string: bool,
    escaped: bool,
    /// Bytes of the current string seen.
    seen: u64,
    /// The current escape's first byte was kept.
    keep_escape: bool,
}

impl Gathered {
    fn push(&mut self, more: &[u8]) {
        let line = TRACE.line_bytes as usize;
        if self.cutting.is_none() {
            if self.bytes.len() + more.len() <= line {
                self.bytes.extend_from_slice(more);
                return;
            }
            // Run what is held through the cutter from its start.
            let held = std::mem::take(&mut self.bytes);
            self.cutting = Some(Cutter::default());
            self.cut(&held);
        }
        self.cut(more);
    }

    fn cut(&mut self, more: &[u8]) {
        let line = TRACE.line_bytes as usize;
        let keep_string = TRACE.string_bytes;
        let Some(mut c) = self.cutting else { return };
        for &b in more {
            let keep = if c.in_string {
                if c.escaped {
                    c.escaped = false;
                    c.keep_escape
                } else if b == b'"' {
                    c.in_string = false;
                    true
                } else {
                    let keep = c.seen < keep_string;
                    c.seen += 1;
                    if b == b'\\' {
                        c.escaped = true;
                        c.keep_escape = keep;
                    }
                    keep
                }
            } else {
                if b == b'"' {
                    c.in_string = true;
                    c.seen = 0;
                }
                true
            };
            if keep {
                if self.bytes.len() < line {
                    self.bytes.push(b);
                } else {
                    self.too_long = true;
                }
            }
        }
        self.cutting = Some(c);
    }

    fn clear(&mut self) {
        self.bytes.clear();
        if self.bytes.capacity() > 2 * TRACE.line_bytes as usize {
            self.bytes = Vec::new();
        }
        self.cutting = None;
        self.too_long = false;
    }
}

#[derive(Debug)]
enum Mode {
    /// Nothing but white space yet.
    Undecided,
    Lines,
    /// A JSON document (`buflab real --json`), gathered whole.
    Json(Vec<u8>),
    /// A JSON document larger than [`TRACE`]`.json_bytes`.
    JsonTooLarge,
}

/// Reads a log chunk by chunk (see the module's documentation).
#[derive(Debug)]
pub struct Parser {
    mode: Mode,
    gathered: Gathered,
    bytes: u64,
    lines: u64,
    non_blank: u64,
    shape: LogShape,
    calls: u64,
    read_calls: u64,
    /// Calls per name, up to `syscall_names` names.
    syscalls: Vec<(Box<[u8]>, u64)>,
    other_syscalls: u64,
    pids: HashSet<u64>,
    pids_more: bool,
    last_pid: Option<u64>,
    signals: u64,
    exits: u64,
    unfinished: Unfinished,
    pending: HashMap<u64, Pending>,
    skipped: Skipped,
    summary: Vec<SummaryRow>,
    in_summary: bool,
    table: Table,
    times: Times,
    /// Where a split call's halves are joined (kept to reuse its memory).
    joined: Vec<u8>,
}

impl Default for Parser {
    fn default() -> Self {
        Parser::new()
    }
}

impl Parser {
    pub fn new() -> Parser {
        Parser {
            mode: Mode::Undecided,
            gathered: Gathered::default(),
            bytes: 0,
            lines: 0,
            non_blank: 0,
            shape: LogShape::default(),
            calls: 0,
            read_calls: 0,
            syscalls: Vec::new(),
            other_syscalls: 0,
            pids: HashSet::new(),
            pids_more: false,
            last_pid: None,
            signals: 0,
            exits: 0,
            unfinished: Unfinished::default(),
            pending: HashMap::new(),
            skipped: Skipped::default(),
            summary: Vec::new(),
            in_summary: false,
            table: Table::new(),
            times: Times::default(),
            joined: Vec::new(),
        }
    }

    /// Reads the next chunk of the log.
    pub fn feed(&mut self, mut chunk: &[u8]) {
        self.bytes += chunk.len() as u64;
        if let Mode::Undecided = self.mode {
            // Blank so far: read as (blank) lines until the first character
            // that is not white space says what the input is.
            match chunk.iter().position(|b| !b.is_ascii_whitespace()) {
                None => {}
                Some(first) if chunk[first] == b'{' => {
                    self.lines_of(&chunk[..first]);
                    self.gathered.clear();
                    self.mode = Mode::Json(Vec::new());
                    chunk = &chunk[first..];
                }
                Some(_) => self.mode = Mode::Lines,
            }
        }
        match &mut self.mode {
            Mode::Json(held) => {
                if held.len() + chunk.len() > TRACE.json_bytes as usize {
                    self.mode = Mode::JsonTooLarge;
                } else {
                    held.extend_from_slice(chunk);
                }
                return;
            }
            Mode::JsonTooLarge => return,
            Mode::Undecided | Mode::Lines => {}
        }
        self.lines_of(chunk);
    }

    /// Reads `chunk` as lines, the first continuing what the last chunk left.
    fn lines_of(&mut self, mut chunk: &[u8]) {
        while let Some(end) = memchr::memchr(b'\n', chunk) {
            if self.gathered.bytes.is_empty() && self.gathered.cutting.is_none() {
                self.line(&chunk[..end], false);
            } else {
                self.gathered.push(&chunk[..end]);
                let held = std::mem::take(&mut self.gathered.bytes);
                let too_long = self.gathered.too_long;
                self.line(&held, too_long);
                self.gathered.bytes = held;
                self.gathered.clear();
            }
            chunk = &chunk[end + 1..];
        }
        if !chunk.is_empty() {
            self.gathered.push(chunk);
        }
    }

    /// How far reading has come.
    pub fn progress(&self) -> TraceProgress {
        TraceProgress {
            bytes: self.bytes,
            lines: self.lines,
            read_calls: self.read_calls,
            descriptors: self.table.figures.len() as u64 + self.table.more.descriptors,
            skipped: self.skipped.lines,
        }
    }

    /// Ends the log: `complete` says whether it was read to its end (false:
    /// cancelled, and the report says its figures are of the part read).
    pub fn finish(mut self, complete: bool) -> Trace {
        if !self.gathered.bytes.is_empty() {
            let held = std::mem::take(&mut self.gathered.bytes);
            let too_long = self.gathered.too_long;
            self.line(&held, too_long);
        }
        if let Mode::Json(_) | Mode::JsonTooLarge = self.mode {
            return self.finish_json(complete);
        }
        self.unfinished.never_resumed += self.pending.len() as u64;
        for f in &mut self.table.figures {
            f.end();
        }
        let kind = if self.calls > 0 {
            LogKind::Strace
        } else if self.non_blank == 0 {
            LogKind::Empty
        } else {
            LogKind::Unknown
        };
        let mut syscalls: Vec<NamedCount> =
            self.syscalls.iter().map(|(name, count)| NamedCount { name: String::from_utf8_lossy(name).into_owned(), count: *count }).collect();
        syscalls.sort_by(|a, b| b.count.cmp(&a.count).then(a.name.cmp(&b.name)));
        let descriptors: Vec<Descriptor> = self.table.figures.iter().enumerate().map(|(i, f)| f.to_model(i as u32)).collect();
        let limits = self.table.figures.iter().map(|f| replay::read_limit(f.kind(), f.max_returned())).collect();
        let sequences = self.table.figures.into_iter().map(|f| f.runs).collect();
        let report = TraceReport {
            kind,
            complete,
            bytes: self.bytes,
            lines: self.lines,
            shape: self.shape,
            calls: self.calls,
            read_calls: self.read_calls,
            syscalls,
            other_syscalls: self.other_syscalls,
            processes: self.pids.len() as u64,
            signals: self.signals,
            exits: self.exits,
            unfinished: self.unfinished,
            descriptors,
            more_descriptors: self.table.more,
            forgotten_fds: self.table.forgotten,
            skipped: self.skipped,
            strace_summary: self.summary,
            real_link: None,
            not_read: None,
        };
        Trace::new(report, sequences, limits)
    }

    fn finish_json(self, complete: bool) -> Trace {
        let mut report = TraceReport {
            kind: LogKind::Unknown,
            complete,
            bytes: self.bytes,
            lines: self.lines,
            shape: LogShape::default(),
            calls: 0,
            read_calls: 0,
            syscalls: Vec::new(),
            other_syscalls: 0,
            processes: 0,
            signals: 0,
            exits: 0,
            unfinished: Unfinished::default(),
            descriptors: Vec::new(),
            more_descriptors: Default::default(),
            forgotten_fds: 0,
            skipped: Skipped::default(),
            strace_summary: Vec::new(),
            real_link: None,
            not_read: None,
        };
        let parsed = match &self.mode {
            Mode::Json(held) => serde_json::from_slice::<RealReport>(held).map_err(|e| e.to_string()),
            _ => Err(format!("JSON larger than {} bytes", TRACE.json_bytes)),
        };
        match parsed {
            Ok(real) => {
                report.kind = LogKind::Real;
                report.real_link = Some(real.link.clone());
                for (i, run) in real.real.iter().enumerate() {
                    let kind = match run.source {
                        RealSource::File => SourceKind::File,
                        RealSource::Pipe => SourceKind::Pipe,
                        RealSource::Tcp => SourceKind::Socket,
                    };
                    let sizes = Sizes { calls: 0, min: run.bytes_per_read.min, max: run.bytes_per_read.max, ..Sizes::default() };
                    report.read_calls += run.read_calls;
                    report.descriptors.push(Descriptor {
                        id: i as u32,
                        fd: -1,
                        opening: 1,
                        path: None,
                        resolved: None,
                        named_by: NamedBy::Real,
                        kind,
                        pid: 0,
                        pids: 1,
                        calls: run.read_calls,
                        syscalls: Vec::new(),
                        bytes: run.bytes,
                        asked: Sizes::default(),
                        returned: sizes,
                        short_sizes: Sizes::default(),
                        short_reads: 0,
                        short_at_end: 0,
                        eof: 0,
                        empty_asks: 0,
                        errors: Vec::new(),
                        failed: 0,
                        positional: 0,
                        in_calls_s: None,
                        first_s: None,
                        last_s: None,
                        over_time: Vec::new(),
                        slice_calls: 1,
                        sequence: Sequence::default(),
                        max_returned: run.bytes_per_read.max,
                        real: Some(RealFigures {
                            source: run.source,
                            reader: run.reader,
                            counted_by: run.counted_by,
                            bytes_per_read: run.bytes_per_read,
                            model_read_calls: run.model.read_calls,
                            model_chunk: run.model.chunk,
                        }),
                        about: String::new(),
                        label: String::new(),
                    });
                }
            }
            Err(why) => report.not_read = Some(shorten(why.as_bytes(), TRACE.quote_chars as usize)),
        }
        let sequences = vec![Vec::new(); report.descriptors.len()];
        let limits = vec![None; report.descriptors.len()];
        Trace::new(report, sequences, limits)
    }

    fn skip(&mut self, raw: &[u8], reason: SkipReason) {
        self.skipped.lines += 1;
        if (self.skipped.examples.len() as u64) < TRACE.quoted_lines {
            self.skipped.examples.push(SkippedLine { line: self.lines, reason, text: shorten(raw, TRACE.quote_chars as usize), why: String::new() });
        }
    }

    fn line(&mut self, raw: &[u8], too_long: bool) {
        self.lines += 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if too_long {
            self.non_blank += 1;
            return self.skip(raw, SkipReason::TooLong);
        }
        if self.in_summary {
            match line::summary_row(raw) {
                Some(Body::SummaryRow { syscall, calls, errors }) => {
                    if syscall != b"total" && (self.summary.len() as u64) < TRACE.syscall_names {
                        self.summary.push(SummaryRow { syscall: String::from_utf8_lossy(syscall).into_owned(), calls, errors });
                    }
                    return;
                }
                _ if matches!(line::parse(raw).1, Body::SummaryRule | Body::Blank) => return,
                _ => self.in_summary = false,
            }
        }
        let (prefix, body) = line::parse(raw);
        if !matches!(body, Body::Blank) {
            self.non_blank += 1;
        }
        if matches!(body, Body::Blank | Body::NotStrace | Body::Truncated | Body::SummaryHeader | Body::SummaryRule | Body::SummaryRow { .. }) {
            return self.other_line(raw, body);
        }
        let pid = prefix.pid.unwrap_or(0);
        if prefix.pid.is_some() && self.last_pid != Some(pid) {
            self.last_pid = Some(pid);
            self.shape.pids = true;
            if !self.pids.contains(&pid) {
                if (self.pids.len() as u64) < TRACE.pids {
                    self.pids.insert(pid);
                } else {
                    self.pids_more = true;
                }
            }
        }
        let time = prefix.time.map(|t| {
            self.shape.timestamps = true;
            self.times.at(t)
        });
        match body {
            Body::Call { name, args, outcome, duration } => self.call(raw, pid, time, name, args, outcome, duration),
            Body::Unfinished { name, args } => {
                if self.pending.len() as u64 >= TRACE.pending && !self.pending.contains_key(&pid) {
                    self.unfinished.never_resumed += 1;
                    return;
                }
                let kept = &args[..args.len().min(TRACE.pending_bytes as usize)];
                let before = self.pending.insert(pid, Pending { name: name.to_vec(), args: kept.to_vec(), time });
                if before.is_some() {
                    self.unfinished.never_resumed += 1;
                }
            }
            Body::Resumed { name, rest } => {
                let Some(first) = self.pending.remove(&pid).filter(|p| p.name == name) else {
                    self.unfinished.orphans += 1;
                    return self.skip(raw, SkipReason::Orphan);
                };
                self.unfinished.joined += 1;
                let mut joined = std::mem::take(&mut self.joined);
                joined.clear();
                joined.extend_from_slice(name);
                joined.push(b'(');
                joined.extend_from_slice(&first.args);
                joined.extend_from_slice(rest);
                let time = first.time.or(time);
                match line::call(&joined) {
                    Body::Call { name, args, outcome, duration } => self.call(raw, pid, time, name, args, outcome, duration),
                    Body::Unfinished { name, args } => {
                        self.pending.insert(pid, Pending { name: name.to_vec(), args: args.to_vec(), time });
                        self.unfinished.joined -= 1;
                    }
                    _ => self.skip(raw, SkipReason::Truncated),
                }
                self.joined = joined;
            }
            Body::Signal => self.signals += 1,
            Body::Exit => {
                self.exits += 1;
                if self.pending.remove(&pid).is_some() {
                    self.unfinished.never_resumed += 1;
                }
            }
            Body::Message => {}
            other => self.other_line(raw, other),
        }
    }

    /// A line that is not a process's: blank, strace's count, or not strace's.
    fn other_line(&mut self, raw: &[u8], body: Body<'_>) {
        match body {
            Body::SummaryHeader => {
                self.in_summary = true;
                self.shape.summary = true;
            }
            Body::Truncated => self.skip(raw, SkipReason::Truncated),
            Body::NotStrace => self.skip(raw, SkipReason::NotStrace),
            _ => {}
        }
    }

    fn count_call(&mut self, name: &[u8]) {
        self.calls += 1;
        if let Some(entry) = self.syscalls.iter_mut().find(|e| &*e.0 == name) {
            entry.1 += 1;
        } else if (self.syscalls.len() as u64) < TRACE.syscall_names {
            self.syscalls.push((name.into(), 1));
        } else {
            self.other_syscalls += 1;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn call(&mut self, raw: &[u8], pid: u64, time: Option<f64>, name: &[u8], args: &[u8], outcome: Outcome<'_>, duration: Option<f64>) {
        if duration.is_some() {
            self.shape.durations = true;
        }
        if let Some(i) = READ_CALLS.iter().position(|c| c.as_bytes() == name) {
            return self.read_call(raw, pid, time, i, args, outcome, duration);
        }
        self.count_call(name);
        let returned = match outcome {
            Outcome::Value { n, annotation } if n >= 0 => Some((n, annotation)),
            _ => None,
        };
        let (a, count) = line::args::<4>(args);
        match name {
            b"open" | b"creat" | b"openat" | b"openat2" => {
                let path_arg = if name.starts_with(b"openat") { 1 } else { 0 };
                if let (Some((fd, annotation)), true) = (returned, path_arg < count) {
                    self.note_annotation(annotation);
                    self.table.open(pid, fd, line::quoted(a[path_arg]), annotation, None, NamedBy::Open);
                }
            }
            b"close" => {
                if let (Outcome::Value { n: 0, .. }, Some((fd, annotation))) = (outcome, line::fd(a[0])) {
                    self.note_annotation(annotation);
                    self.table.close(pid, fd);
                }
            }
            b"dup" | b"dup2" | b"dup3" | b"fcntl" | b"fcntl64" => {
                let dups = !name.starts_with(b"fcntl") || (count > 1 && a[1].starts_with(b"F_DUPFD"));
                if let (true, Some((new, _)), Some((old, _))) = (dups, returned, line::fd(a[0])) {
                    self.table.dup(pid, old, new);
                }
            }
            b"socket" | b"accept" | b"accept4" => {
                if let Some((fd, annotation)) = returned {
                    self.note_annotation(annotation);
                    let path = annotation.unwrap_or(name);
                    self.table.open(pid, fd, Some(path), annotation, Some(SourceKind::Socket), NamedBy::Call);
                }
            }
            b"pipe" | b"pipe2" | b"socketpair" => {
                let (list, kind) = if name == b"socketpair" { (3, SourceKind::Socket) } else { (0, SourceKind::Pipe) };
                if let (Outcome::Value { n: 0, .. }, true) = (outcome, list < count) {
                    let inner = a[list].strip_prefix(b"[").and_then(|l| l.strip_suffix(b"]")).unwrap_or(b"");
                    let (ends, n) = line::args::<2>(inner);
                    for end in &ends[..n] {
                        if let Some((fd, annotation)) = line::fd(end) {
                            self.table.open(pid, fd, Some(annotation.unwrap_or(name)), annotation, Some(kind), NamedBy::Call);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn note_annotation(&mut self, annotation: Option<&[u8]>) {
        if annotation.is_some() {
            self.shape.paths = true;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn read_call(&mut self, raw: &[u8], pid: u64, time: Option<f64>, syscall: usize, args: &[u8], outcome: Outcome<'_>, duration: Option<f64>) {
        let (a, count) = line::args::<4>(args);
        let Some((fd, annotation)) = (count > 0).then(|| line::fd(a[0])).flatten() else {
            return self.skip(raw, SkipReason::BadArguments);
        };
        let asked = match READ_CALLS[syscall] {
            "readv" | "preadv" | "preadv2" | "recvmsg" if count > 1 => line::iov_total(a[1]),
            _ if count > 2 => line::number(a[2]),
            _ => None,
        };
        let result = match outcome {
            Outcome::Value { n, .. } if (0..=MAX_RW as i64).contains(&n) && asked.is_some() => ReadResult::Bytes(n as u64),
            Outcome::Error(name) => ReadResult::Failed(name),
            Outcome::Unknown => ReadResult::Failed(b"?"),
            _ => return self.skip(raw, SkipReason::BadArguments),
        };
        self.count_call(READ_CALLS[syscall].as_bytes());
        self.read_calls += 1;
        self.note_annotation(annotation);
        let call = ReadCall { syscall, pid, asked, result, time, duration };
        match self.table.read(pid, fd, annotation) {
            Some(index) => self.table.record(index, &call),
            None => {
                self.table.more.calls += 1;
                if let ReadResult::Bytes(n) = result {
                    self.table.more.bytes += n;
                }
            }
        }
    }
}

/// Untrusted text quoted back: at most `chars` characters, invalid UTF-8
/// and control characters replaced, "…" where it was cut.
pub fn shorten(raw: &[u8], chars: usize) -> String {
    let text = String::from_utf8_lossy(&raw[..raw.len().min(chars * 4)]);
    let mut out: String = text.chars().take(chars).map(|c| if c.is_control() { '\u{FFFD}' } else { c }).collect();
    if text.chars().count() > chars || raw.len() > chars * 4 {
        out.push('…');
    }
    out
}

/// The most heap reading a log may hold, whatever its length, in bytes:
/// each table at its bound in [`TRACE`], sized from the types it holds,
/// with growth room where a table grows by doubling (a vector of runs up
/// to twice its length, a hash table about twice its entries), strings at
/// 4 bytes a character, and at the end the report made beside the figures
/// it is made from. An upper estimate; a test holds the reader to it on
/// logs made to fill every table.
pub fn memory_bound() -> u64 {
    use std::mem::size_of;
    use crate::model::trace::{Bucket, Descriptor, NamedCount, SizeCount, Slice};
    let t = TRACE;
    let path = t.path_chars * 4 + 16;
    // One descriptor's figures while reading: the struct (three histograms
    // of 65 buckets inline), its slices, exact sizes, errors, processes and
    // two names.
    let figures = size_of::<fds::Figures>() as u64
        + t.slices * size_of::<Slice>() as u64
        + 3 * t.exact_sizes * 16
        + (t.error_names + 1) * 48
        + 64 * 8
        + 2 * path;
    // The same descriptor in the report: slices, buckets and exact sizes of
    // three histograms, errors and syscalls, two names.
    let report = size_of::<Descriptor>() as u64
        + t.slices * size_of::<Slice>() as u64
        + 3 * (65 * size_of::<Bucket>() as u64 + t.exact_sizes * size_of::<SizeCount>() as u64)
        + (t.error_names + 1 + fds::READ_CALLS.len() as u64) * (size_of::<NamedCount>() as u64 + 16)
        + 2 * path;
    // (The vector of figures may have room for twice its length.)
    let descriptors = t.descriptors * (figures + report + size_of::<fds::Figures>() as u64);
    let runs = 2 * t.runs_total * size_of::<Run>() as u64;
    // Two tables of open descriptors (per process, and latest per number),
    // each entry a shared slot and up to two names of its own.
    let open = 2 * t.open_fds * (2 * 48 + 2 * path + 32);
    let counts = 2 * t.open_fds * 32;
    let pids = 2 * t.pids * 16;
    let pending = 2 * t.pending * (t.pending_bytes + 96);
    let lines = 2 * t.line_bytes + 2 * t.pending_bytes + t.quoted_lines * t.quote_chars * 4;
    let names = t.syscall_names * (96 + 64);
    descriptors + runs + open + counts + pids + pending + lines + names
}

/// Reads a whole log from `input` in chunks of `chunk` bytes; `go_on` is
/// asked after each chunk with the progress so far, and reading stops (the
/// report marked incomplete) when it says no.
pub fn read_log(mut input: impl Read, chunk: usize, mut go_on: impl FnMut(&TraceProgress) -> bool) -> io::Result<Trace> {
    let mut parser = Parser::new();
    let mut buf = vec![0u8; chunk.max(1)];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => return Ok(parser.finish(true)),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        parser.feed(&buf[..n]);
        if !go_on(&parser.progress()) {
            return Ok(parser.finish(false));
        }
    }
}

/// Reads a whole log held in memory.
pub fn read_text(text: &[u8]) -> Trace {
    let mut parser = Parser::new();
    parser.feed(text);
    parser.finish(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::trace::SkipReason;

    /// `log` read in chunks of 4 KiB, as a file is: a longer line is
    /// gathered across them, and held to the line's bounds.
    fn read_in_chunks(log: &str) -> TraceReport {
        let mut parser = Parser::new();
        for chunk in log.as_bytes().chunks(4096) {
            parser.feed(chunk);
        }
        parser.finish(true).report
    }

    /// ARCHITECTURE.md ("strace logs"): a line is kept up to 64 KiB outside
    /// its quoted strings, each string cut to 4 KiB (the kept part counts).
    #[test]
    fn a_line_is_kept_up_to_64_kib_each_string_cut_to_4_kib() {
        // A read whose descriptor's path (`-y`, outside any string) makes the line `len` bytes.
        let read = |len: usize| {
            let (head, tail) = ("read(3</", ">, \"a\", 1) = 1");
            format!("{head}{}{tail}\n", "p".repeat(len - head.len() - tail.len()))
        };
        let r = read_in_chunks(&read(65_536));
        assert_eq!((r.read_calls, r.skipped.lines), (1, 0));
        let r = read_in_chunks(&read(65_537));
        assert_eq!((r.read_calls, r.skipped.lines, r.skipped.examples[0].reason), (0, 1, SkipReason::TooLong));
        // A readv into `n` buffers of 8,000 bytes, each string cut to its
        // first 4,096: with 15 the line keeps 61,898 bytes, within 64 KiB;
        // with 16, 66,023, past it.
        let readv = |n: usize| {
            let iov = format!("{{iov_base=\"{}\", iov_len=8000}}", "d".repeat(8000));
            format!("readv(3, [{}], {n}) = {}\n", vec![iov; n].join(", "), n * 8000)
        };
        let r = read_in_chunks(&readv(15));
        assert_eq!((r.read_calls, r.skipped.lines, r.descriptors[0].bytes), (1, 0, 120_000));
        let r = read_in_chunks(&readv(16));
        assert_eq!((r.read_calls, r.skipped.lines, r.skipped.examples[0].reason), (0, 1, SkipReason::TooLong));
    }

    /// README.md ("What a buffer would have made of it"): a descriptor's
    /// requests are replayed in order, and unbuffered gives exactly the
    /// log's calls: here 2,000 reads each asking a size of its own (2,000
    /// runs, far below the million the replay keeps), one of 4 MiB, and the end.
    #[test]
    fn unbuffered_replays_exactly_the_logs_calls() {
        let mut log: String = (1..=2000).map(|n| format!("read(3, \"\"..., {n}) = {n}\n")).collect();
        log += "read(3, \"\"..., 4194304) = 4194304\nread(3, \"\", 4194304) = 0\n";
        let mut parser = Parser::new();
        parser.feed(log.as_bytes());
        let trace = parser.finish(true);
        let unbuffered = replay::drive(trace.runs(0).unwrap(), None, crate::model::ReaderKind::Unbuffered, 1).unwrap();
        let bytes = 2000 * 2001 / 2 + 4_194_304;
        assert_eq!((unbuffered.source_reads, unbuffered.app_reads, unbuffered.bytes), (2002, 2002, bytes));
    }

    /// README.md: any log is read "in at most about 90 MiB of heap". The
    /// bound the integration tests hold the reader to (every table at its
    /// limit in [`TRACE`]) is that figure, to the README's precision.
    #[test]
    fn the_heap_bound_is_the_readmes_90_mib() {
        let mib = memory_bound() as f64 / (1u64 << 20) as f64;
        assert_eq!(mib.round(), 90.0, "{mib:.2} MiB");
    }
}
