//! Descriptors: which open file a read's number refers to, and what each
//! one's reads add up to.
//!
//! A number names a different file after a `close` and the next `open`,
//! and under `strace -f` each process has numbers of its own (threads share
//! theirs, a child inherits its parent's). So a read is matched to an
//! *opening*, in this order:
//!
//! 1. the opening this process last made or used under that number, if
//!    `-y`'s annotation (when there is one) agrees;
//! 2. else the latest opening any process made under that number (a
//!    thread's or a parent's), if the annotation agrees;
//! 3. else a new opening, named by the annotation (or by nothing).
//!
//! An `open` that returns a number the process already had starts a new
//! opening; a `close` ends one; `dup` makes a second number for the same
//! one (its reads move the same file offset). An opening gets figures of
//! its own ([`Figures`], one [`crate::model::trace::Descriptor`]) at its
//! first read, so files opened and never read (a program's libraries, its
//! locale files) take no room. Every table here is bounded by
//! [`TRACE`](crate::model::TRACE).

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::model::trace::{
    Bucket, Descriptor, MoreDescriptors, NamedBy, NamedCount, Sequence, SizeCount, Sizes, Slice, SourceKind,
};
use crate::model::TRACE;

/// The read system calls, in the order a descriptor counts them.
pub const READ_CALLS: [&str; 8] = ["read", "readv", "pread64", "preadv", "preadv2", "recvfrom", "recv", "recvmsg"];

/// Whether read call `i` of [`READ_CALLS`] reads at an offset of its own.
pub fn positional(i: usize) -> bool {
    matches!(READ_CALLS[i], "pread64" | "preadv" | "preadv2")
}

/// A run of equal calls in a descriptor's request sequence: the program
/// asked for `asked` bytes and got `returned` (0: end of file), `count`
/// times in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub asked: u32,
    pub returned: u32,
    pub count: u32,
}

/// Which descriptor an opening's reads go to, once it has one.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// Not read yet.
    Unread,
    /// Index into [`Table::figures`].
    Figures(u32),
    /// Past the descriptor limit: counted in [`Table::more`].
    Beyond,
}

/// What the log has shown a number to refer to. Clones (the same opening
/// under another process or number) share the slot.
#[derive(Clone, Debug)]
struct Opening {
    fd: i64,
    /// 1 for the first opening of this number in its process, 2 for the next, …
    nth: u32,
    path: Option<Rc<str>>,
    /// `-y`'s name for it.
    annotation: Option<Rc<str>>,
    kind: SourceKind,
    named_by: NamedBy,
    slot: Rc<Cell<Slot>>,
}

impl Opening {
    /// Whether a call's annotation (if any) names this opening.
    fn agrees(&self, annotation: Option<&str>) -> bool {
        match (annotation, &self.annotation) {
            (None, _) => true,
            (Some(a), Some(mine)) => a == &**mine,
            (Some(_), None) => false,
        }
    }
}

/// What `-y` or a path says a descriptor is.
pub fn kind_of(name: &str) -> SourceKind {
    if name.starts_with("pipe:") {
        return SourceKind::Pipe;
    }
    if name.starts_with("anon_inode:") {
        return SourceKind::Other;
    }
    if name.starts_with("/dev/") {
        return SourceKind::Device;
    }
    // socket:[123], TCP:[…], UDPv6:[…], UNIX:[…], NETLINK:[…]
    if let Some((family, rest)) = name.split_once(':') {
        if rest.starts_with('[') && (family == "socket" || family.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'v')) {
            return SourceKind::Socket;
        }
    }
    SourceKind::File
}

/// A name kept for display: at most [`TRACE`]`.path_chars` characters,
/// the end of a longer one after "…"; invalid UTF-8 replaced.
pub fn shortened(bytes: &[u8]) -> Rc<str> {
    let text = String::from_utf8_lossy(bytes);
    let max = TRACE.path_chars as usize;
    let count = text.chars().count();
    if count <= max {
        return Rc::from(&*text);
    }
    let tail: String = text.chars().skip(count - (max - 1)).collect();
    Rc::from(format!("…{tail}"))
}

/// Every descriptor the log has shown, and the figures of those read.
#[derive(Debug, Default)]
pub struct Table {
    /// Per process and number: the opening it refers to.
    fds: HashMap<(u64, i64), Opening>,
    /// Per number: the latest opening under it, in any process.
    latest: HashMap<i64, Opening>,
    /// Descriptors so far per process and number, for [`Descriptor::opening`].
    openings: HashMap<(u64, i64), u32>,
    pub figures: Vec<Figures>,
    pub more: MoreDescriptors,
    /// Openings forgotten to keep the tables within [`TRACE`]`.open_fds`.
    pub forgotten: u64,
    /// Runs the request sequences may still store, over all descriptors.
    runs_left: u64,
    /// The last read's process, number, annotation and descriptor: the next
    /// read is most often on the same one, and nothing but an open, a close
    /// or a dup changes where it goes.
    last: Option<(u64, i64, usize)>,
    last_annotation: Option<Vec<u8>>,
}

impl Table {
    pub fn new() -> Table {
        Table { runs_left: TRACE.runs_total, ..Table::default() }
    }

    /// `fd` now refers to a new open file in process `pid`.
    pub fn open(&mut self, pid: u64, fd: i64, path: Option<&[u8]>, annotation: Option<&[u8]>, kind: Option<SourceKind>, named_by: NamedBy) {
        let path = path.map(shortened);
        let annotation = annotation.map(shortened);
        let kind = kind.unwrap_or_else(|| match (&annotation, &path) {
            (Some(a), _) => kind_of(a),
            (None, Some(p)) => kind_of(p),
            (None, None) => SourceKind::Unknown,
        });
        let nth = self.nth(pid, fd);
        let opening = Opening { fd, nth, path, annotation, kind, named_by, slot: Rc::new(Cell::new(Slot::Unread)) };
        self.bind(pid, fd, opening);
    }

    /// Counts an opening of `fd` in `pid`: which one it is (0 once the
    /// table of counts is full).
    fn nth(&mut self, pid: u64, fd: i64) -> u32 {
        let room = (self.openings.len() as u64) < TRACE.open_fds;
        match self.openings.get_mut(&(pid, fd)) {
            Some(n) => {
                *n = n.saturating_add(1);
                *n
            }
            None if room => {
                self.openings.insert((pid, fd), 1);
                1
            }
            None => 0,
        }
    }

    /// `pid`'s `fd` refers to `opening`, as far as the tables have room.
    fn bind(&mut self, pid: u64, fd: i64, opening: Opening) {
        self.last = None;
        let room = TRACE.open_fds as usize;
        if self.fds.len() >= room && !self.fds.contains_key(&(pid, fd)) {
            // Full: one the table follows is forgotten (a later read on it
            // starts a new descriptor), and counted.
            if let Some(&key) = self.fds.keys().next() {
                self.fds.remove(&key);
                self.forgotten += 1;
            }
        }
        self.fds.insert((pid, fd), opening.clone());
        if self.latest.len() >= room && !self.latest.contains_key(&fd) {
            if let Some(&key) = self.latest.keys().next() {
                self.latest.remove(&key);
            }
        }
        self.latest.insert(fd, opening);
    }

    /// `pid` closed `fd`.
    pub fn close(&mut self, pid: u64, fd: i64) {
        self.last = None;
        let closed = self.fds.remove(&(pid, fd));
        let latest_is_it = match (&closed, self.latest.get(&fd)) {
            (Some(c), Some(l)) => Rc::ptr_eq(&c.slot, &l.slot),
            // A thread closing what another opened.
            (None, Some(_)) => true,
            _ => false,
        };
        if latest_is_it {
            self.latest.remove(&fd);
        }
    }

    /// `pid`'s `new` is a second number for what its `old` refers to.
    pub fn dup(&mut self, pid: u64, old: i64, new: i64) {
        if old == new {
            return;
        }
        if let Some(mut opening) = self.find(pid, old, None) {
            opening.fd = new;
            opening.nth = self.nth(pid, new);
            self.bind(pid, new, opening);
        }
    }

    /// The opening a call of `pid` on `fd` (with `-y`'s `annotation`) refers to.
    fn find(&self, pid: u64, fd: i64, annotation: Option<&str>) -> Option<Opening> {
        if let Some(o) = self.fds.get(&(pid, fd)).filter(|o| o.agrees(annotation)) {
            return Some(o.clone());
        }
        self.latest.get(&fd).filter(|o| o.agrees(annotation)).cloned()
    }

    /// The index in [`Table::figures`] a read of `pid` on `fd` goes to;
    /// `None` past the descriptor limit (the caller counts it in
    /// [`Table::more`]).
    pub fn read(&mut self, pid: u64, fd: i64, annotation: Option<&[u8]>) -> Option<usize> {
        if let Some((p, f, index)) = self.last {
            if p == pid && f == fd && self.last_annotation.as_deref() == annotation {
                return Some(index);
            }
        }
        let index = self.find_figures(pid, fd, annotation)?;
        self.last = Some((pid, fd, index));
        match (annotation, &mut self.last_annotation) {
            (Some(a), Some(kept)) => {
                kept.clear();
                kept.extend_from_slice(a);
            }
            (a, kept) => *kept = a.map(<[u8]>::to_vec),
        }
        Some(index)
    }

    /// [`Table::read`] without the shortcut.
    fn find_figures(&mut self, pid: u64, fd: i64, annotation: Option<&[u8]>) -> Option<usize> {
        let text = annotation.map(String::from_utf8_lossy);
        let opening = match self.find(pid, fd, text.as_deref()) {
            Some(o) => {
                if !self.fds.contains_key(&(pid, fd)) || !self.fds[&(pid, fd)].agrees(text.as_deref()) {
                    self.bind(pid, fd, o.clone());
                }
                o
            }
            None => {
                let named_by = if annotation.is_some() { NamedBy::Annotation } else { NamedBy::Nothing };
                self.open(pid, fd, None, annotation, None, named_by);
                self.fds[&(pid, fd)].clone()
            }
        };
        let index = match opening.slot.get() {
            Slot::Figures(i) => i,
            Slot::Beyond => return None,
            Slot::Unread if self.figures.len() as u64 >= TRACE.descriptors => {
                opening.slot.set(Slot::Beyond);
                self.more.descriptors += 1;
                return None;
            }
            Slot::Unread => {
                let i = self.figures.len() as u32;
                self.figures.push(Figures::new(&opening, pid));
                opening.slot.set(Slot::Figures(i));
                i
            }
        };
        Some(index as usize)
    }

    /// Records a read on the descriptor [`Table::read`] found.
    pub fn record(&mut self, index: usize, call: &ReadCall<'_>) {
        let Table { figures, runs_left, .. } = self;
        figures[index].record(call, runs_left);
    }
}

/// What one read call did.
#[derive(Clone, Copy, Debug)]
pub struct ReadCall<'a> {
    /// Index into [`READ_CALLS`].
    pub syscall: usize,
    pub pid: u64,
    /// Bytes asked for (`None`: not shown, for a call that failed).
    pub asked: Option<u64>,
    pub result: ReadResult<'a>,
    pub time: Option<f64>,
    pub duration: Option<f64>,
}

#[derive(Clone, Copy, Debug)]
pub enum ReadResult<'a> {
    Bytes(u64),
    /// The error's name (`?`: the call never returned).
    Failed(&'a [u8]),
}

/// A histogram of sizes (see [`Sizes`]).
#[derive(Clone, Debug)]
pub struct Hist {
    calls: u64,
    min: u64,
    max: u64,
    buckets: [u64; 65],
    /// (size, calls), in order of first sight.
    exact: Vec<(u64, u64)>,
    other: u64,
    /// Index in `exact` of the last size added: the next is most often the same.
    last: usize,
}

impl Default for Hist {
    fn default() -> Hist {
        Hist { calls: 0, min: u64::MAX, max: 0, buckets: [0; 65], exact: Vec::new(), other: 0, last: 0 }
    }
}

impl Hist {
    pub fn add(&mut self, size: u64) {
        self.calls += 1;
        self.min = self.min.min(size);
        self.max = self.max.max(size);
        self.buckets[(64 - size.leading_zeros()) as usize] += 1;
        if let Some(e) = self.exact.get_mut(self.last).filter(|e| e.0 == size) {
            e.1 += 1;
            return;
        }
        match self.exact.iter().position(|e| e.0 == size) {
            Some(i) => {
                self.exact[i].1 += 1;
                self.last = i;
            }
            None if (self.exact.len() as u64) < TRACE.exact_sizes => {
                self.last = self.exact.len();
                self.exact.push((size, 1));
            }
            None => self.other += 1,
        }
    }

    /// The most frequent exact size.
    pub fn mode(&self) -> Option<u64> {
        self.exact.iter().max_by_key(|e| (e.1, std::cmp::Reverse(e.0))).map(|e| e.0)
    }

    pub fn to_model(&self) -> Sizes {
        let buckets = self
            .buckets
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(k, &count)| {
                let (from, to) = if k == 0 { (0, 0) } else { (1u64 << (k - 1), ((1u128 << k) - 1) as u64) };
                Bucket { from, to, count }
            })
            .collect();
        let mut exact: Vec<SizeCount> = self.exact.iter().map(|&(size, count)| SizeCount { size, count }).collect();
        exact.sort_by(|a, b| b.count.cmp(&a.count).then(a.size.cmp(&b.size)));
        Sizes { calls: self.calls, min: if self.calls == 0 { 0 } else { self.min }, max: self.max, buckets, exact, other: self.other }
    }
}

/// A descriptor's calls in order, in at most [`TRACE`]`.slices` slices:
/// when they are full, neighbours merge and each slice holds twice the calls.
#[derive(Clone, Debug)]
pub struct Slices {
    width: u64,
    slices: Vec<Slice>,
}

impl Default for Slices {
    fn default() -> Slices {
        Slices { width: 1, slices: Vec::new() }
    }
}

impl Slices {
    /// The slice call number `index` falls in.
    fn at(&mut self, index: u64, time: Option<f64>) -> &mut Slice {
        let most = TRACE.slices;
        while index / self.width >= most {
            self.halve();
        }
        let k = (index / self.width) as usize;
        while self.slices.len() <= k {
            let first_call = self.slices.len() as u64 * self.width;
            self.slices.push(Slice { first_call, ..Slice::default() });
        }
        let slice = &mut self.slices[k];
        if slice.at_s.is_none() {
            slice.at_s = time;
        }
        slice
    }

    fn halve(&mut self) {
        let merged = self
            .slices
            .chunks(2)
            .map(|pair| {
                let mut s = pair[0];
                if let Some(b) = pair.get(1) {
                    s.calls += b.calls;
                    s.bytes += b.bytes;
                    s.short_reads += b.short_reads;
                    s.eof += b.eof;
                    s.failed += b.failed;
                    s.min_returned = match (s.min_returned, b.min_returned) {
                        (0, m) | (m, 0) => m,
                        (a, b) => a.min(b),
                    };
                    s.max_returned = s.max_returned.max(b.max_returned);
                    s.at_s = s.at_s.or(b.at_s);
                }
                s
            })
            .collect();
        self.slices = merged;
        self.width *= 2;
    }
}

/// One descriptor's figures while the log is read.
#[derive(Clone, Debug)]
pub struct Figures {
    fd: i64,
    opening: u32,
    path: Option<Rc<str>>,
    annotation: Option<Rc<str>>,
    named_by: NamedBy,
    kind: SourceKind,
    pid: u64,
    /// Processes seen reading it (at most 64 told apart).
    pids: Vec<u64>,
    calls: u64,
    syscalls: [u64; READ_CALLS.len()],
    bytes: u64,
    pub asked: Hist,
    returned: Hist,
    pub short_sizes: Hist,
    short: u64,
    short_at_end: u64,
    /// A short read not yet known to be in the middle or at the end: its size.
    last_short: Option<u64>,
    eof: u64,
    empty: u64,
    errors: Vec<(Box<str>, u64)>,
    failed: u64,
    positional: u64,
    in_calls: Option<f64>,
    first_s: Option<f64>,
    last_s: Option<f64>,
    slices: Slices,
    max_returned: u64,
    pub runs: Vec<Run>,
    sequence: Sequence,
    /// Still storing runs: once a run finds no room, none is stored, so
    /// the stored runs are always a prefix of the sequence.
    storing: bool,
}

/// Linux never returns more than this from one read (`MAX_RW_COUNT`); a
/// larger result is not a read strace printed.
pub const MAX_RW: u64 = 0x7fff_f000;

impl Figures {
    fn new(o: &Opening, pid: u64) -> Figures {
        Figures {
            fd: o.fd,
            opening: o.nth,
            path: o.path.clone(),
            annotation: o.annotation.clone(),
            named_by: o.named_by,
            kind: o.kind,
            pid,
            pids: vec![pid],
            calls: 0,
            syscalls: [0; READ_CALLS.len()],
            bytes: 0,
            asked: Hist::default(),
            returned: Hist::default(),
            short_sizes: Hist::default(),
            short: 0,
            short_at_end: 0,
            last_short: None,
            eof: 0,
            empty: 0,
            errors: Vec::new(),
            failed: 0,
            positional: 0,
            in_calls: None,
            first_s: None,
            last_s: None,
            slices: Slices::default(),
            max_returned: 0,
            runs: Vec::new(),
            sequence: Sequence::default(),
            storing: true,
        }
    }

    pub fn kind(&self) -> SourceKind {
        self.kind
    }

    pub fn max_returned(&self) -> u64 {
        self.max_returned
    }

    fn record(&mut self, call: &ReadCall<'_>, runs_left: &mut u64) {
        let index = self.calls;
        self.calls += 1;
        self.syscalls[call.syscall] += 1;
        if !self.pids.contains(&call.pid) && self.pids.len() < 64 {
            self.pids.push(call.pid);
        }
        if let Some(t) = call.time {
            self.first_s.get_or_insert(t);
            self.last_s = Some(t);
        }
        if let Some(d) = call.duration {
            *self.in_calls.get_or_insert(0.0) += d;
        }
        let positional = positional(call.syscall);
        if positional {
            self.positional += 1;
        }
        let slice = self.slices.at(index, call.time);
        slice.calls += 1;
        let n = match call.result {
            ReadResult::Failed(name) => {
                slice.failed += 1;
                self.failed += 1;
                let name = String::from_utf8_lossy(name);
                let room = (self.errors.len() as u64) < TRACE.error_names;
                let name = if room || self.errors.iter().any(|e| *e.0 == *name) { name } else { "other".into() };
                match self.errors.iter_mut().find(|e| *e.0 == *name) {
                    Some(e) => e.1 += 1,
                    None => self.errors.push((name.into(), 1)),
                }
                return;
            }
            ReadResult::Bytes(n) => n,
        };
        // strace shortens long buffer lists: never less than was returned.
        let asked = call.asked.unwrap_or(n).max(n);
        slice.bytes += n;
        if n > 0 {
            slice.min_returned = if slice.min_returned == 0 { n } else { slice.min_returned.min(n) };
            slice.max_returned = slice.max_returned.max(n);
        }
        self.bytes += n;
        self.max_returned = self.max_returned.max(n);
        self.asked.add(asked);
        self.returned.add(n);
        match (n, asked) {
            (0, 0) => self.empty += 1,
            (0, _) => {
                slice.eof += 1;
                self.eof += 1;
                if self.last_short.take().is_some() {
                    self.short_at_end += 1;
                }
            }
            (n, asked) => {
                if let Some(size) = self.last_short.take() {
                    self.short_sizes.add(size);
                }
                if n < asked {
                    slice.short_reads += 1;
                    self.short += 1;
                    self.last_short = Some(n);
                }
            }
        }
        if positional {
            return;
        }
        self.sequence.of_calls += 1;
        self.sequence.of_bytes += n;
        if !self.storing {
            return;
        }
        let (asked, returned) = (asked.min(u64::from(u32::MAX)) as u32, n as u32);
        let room = (self.runs.len() as u64) < TRACE.runs_per_descriptor && *runs_left > 0;
        match self.runs.last_mut() {
            Some(last) if last.asked == asked && last.returned == returned && last.count < u32::MAX => last.count += 1,
            _ if room => {
                *runs_left -= 1;
                self.runs.push(Run { asked, returned, count: 1 });
            }
            _ => {
                self.storing = false;
                return;
            }
        }
        self.sequence.runs = self.runs.len() as u64;
        self.sequence.calls += 1;
        self.sequence.bytes += n;
    }

    /// The log has ended: a short read still waiting to be placed was in
    /// the middle as far as the log shows.
    pub fn end(&mut self) {
        if let Some(size) = self.last_short.take() {
            self.short_sizes.add(size);
        }
    }

    pub fn to_model(&self, id: u32) -> Descriptor {
        let (path, resolved) = match (&self.path, &self.annotation) {
            (Some(p), Some(a)) if p != a => (Some(p.to_string()), Some(a.to_string())),
            (Some(p), _) => (Some(p.to_string()), None),
            (None, a) => (a.as_ref().map(|a| a.to_string()), None),
        };
        let syscalls = READ_CALLS
            .iter()
            .zip(self.syscalls)
            .filter(|(_, n)| *n > 0)
            .map(|(name, count)| NamedCount { name: name.to_string(), count })
            .collect();
        let mut errors: Vec<NamedCount> = self.errors.iter().map(|(name, count)| NamedCount { name: name.to_string(), count: *count }).collect();
        errors.sort_by(|a, b| b.count.cmp(&a.count).then(a.name.cmp(&b.name)));
        Descriptor {
            id,
            fd: self.fd,
            opening: self.opening,
            path,
            resolved,
            named_by: self.named_by,
            kind: self.kind,
            pid: self.pid,
            pids: self.pids.len() as u64,
            calls: self.calls,
            syscalls,
            bytes: self.bytes,
            asked: self.asked.to_model(),
            returned: self.returned.to_model(),
            short_sizes: self.short_sizes.to_model(),
            short_reads: self.short,
            short_at_end: self.short_at_end,
            eof: self.eof,
            empty_asks: self.empty,
            errors,
            failed: self.failed,
            positional: self.positional,
            in_calls_s: self.in_calls,
            first_s: self.first_s,
            last_s: self.last_s,
            over_time: self.slices.slices.clone(),
            slice_calls: self.slices.width,
            sequence: self.sequence,
            max_returned: self.max_returned,
            real: None,
            about: String::new(),
            label: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(table: &mut Table, pid: u64, fd: i64, annotation: Option<&str>, n: u64) -> Option<usize> {
        let call = ReadCall { syscall: 0, pid, asked: Some(n), result: ReadResult::Bytes(n), time: None, duration: None };
        let i = table.read(pid, fd, annotation.map(str::as_bytes))?;
        table.record(i, &call);
        Some(i)
    }

    #[test]
    fn a_reused_number_is_a_new_descriptor_and_a_dup_the_same_one() {
        let mut t = Table::new();
        t.open(1, 3, Some(b"a"), None, None, NamedBy::Open);
        assert_eq!(read(&mut t, 1, 3, None, 10), Some(0));
        t.close(1, 3);
        t.open(1, 3, Some(b"b"), None, None, NamedBy::Open);
        assert_eq!(read(&mut t, 1, 3, None, 10), Some(1));
        // Without the close, an open of the same number is a new one too.
        t.open(1, 3, Some(b"c"), None, None, NamedBy::Open);
        assert_eq!(read(&mut t, 1, 3, None, 10), Some(2));
        t.dup(1, 3, 0);
        assert_eq!(read(&mut t, 1, 0, None, 10), Some(2));
        let d: Vec<_> = t.figures.iter().enumerate().map(|(i, f)| f.to_model(i as u32)).collect();
        assert_eq!(d.iter().map(|d| (d.fd, d.opening, d.path.clone().unwrap())).collect::<Vec<_>>(), [
            (3, 1, "a".to_string()),
            (3, 2, "b".to_string()),
            (3, 3, "c".to_string())
        ]);
        assert_eq!(d[2].calls, 2);
    }

    #[test]
    fn processes_keep_their_own_numbers_and_threads_share() {
        let mut t = Table::new();
        t.open(1, 3, Some(b"one"), None, None, NamedBy::Open);
        t.open(2, 3, Some(b"two"), None, None, NamedBy::Open);
        assert_eq!(read(&mut t, 1, 3, None, 1), Some(0));
        assert_eq!(read(&mut t, 2, 3, None, 1), Some(1));
        assert_eq!(read(&mut t, 1, 3, None, 1), Some(0));
        // A thread that opened nothing reads the latest opening of the number.
        assert_eq!(read(&mut t, 7, 3, None, 1), Some(1));
        // -y decides where it says something.
        let mut t = Table::new();
        assert_eq!(read(&mut t, 1, 0, Some("pipe:[1]"), 1), Some(0));
        assert_eq!(read(&mut t, 2, 0, Some("/data"), 1), Some(1));
        assert_eq!(read(&mut t, 1, 0, Some("pipe:[1]"), 1), Some(0));
        assert_eq!(read(&mut t, 2, 0, Some("/data"), 1), Some(1));
        assert_eq!(t.figures[0].kind(), SourceKind::Pipe);
        assert_eq!(t.figures[1].kind(), SourceKind::File);
    }

    #[test]
    fn kinds_from_names() {
        for (name, kind) in [
            ("pipe:[25513]", SourceKind::Pipe),
            ("socket:[31027]", SourceKind::Socket),
            ("TCP:[127.0.0.1:80->127.0.0.1:5000]", SourceKind::Socket),
            ("UDPv6:[1]", SourceKind::Socket),
            ("/dev/pts/0", SourceKind::Device),
            ("anon_inode:[eventfd]", SourceKind::Other),
            ("/tmp/f.bin", SourceKind::File),
            ("data.bin", SourceKind::File),
        ] {
            assert_eq!(kind_of(name), kind, "{name}");
        }
    }

    #[test]
    fn a_histogram_keeps_exact_sizes_and_power_of_two_buckets() {
        let mut h = Hist::default();
        for size in [0, 1, 1, 3, 4096, 4096, 4097] {
            h.add(size);
        }
        let m = h.to_model();
        assert_eq!((m.calls, m.min, m.max, m.other), (7, 0, 4097, 0));
        assert_eq!(m.exact[0], SizeCount { size: 1, count: 2 });
        let b: Vec<(u64, u64, u64)> = m.buckets.iter().map(|b| (b.from, b.to, b.count)).collect();
        assert_eq!(b, [(0, 0, 1), (1, 1, 2), (2, 3, 1), (4096, 8191, 3)]);
        let mut h = Hist::default();
        h.add(u64::MAX);
        assert_eq!(h.to_model().buckets, [Bucket { from: 1 << 63, to: u64::MAX, count: 1 }]);
        let mut h = Hist::default();
        for size in 0..100 {
            h.add(size);
        }
        assert_eq!((h.to_model().exact.len() as u64, h.to_model().other), (TRACE.exact_sizes, 100 - TRACE.exact_sizes));
    }

    #[test]
    fn slices_merge_and_keep_every_call() {
        let mut s = Slices::default();
        for i in 0..1000u64 {
            let slice = s.at(i, None);
            slice.calls += 1;
            slice.bytes += i;
        }
        assert!(s.slices.len() as u64 <= TRACE.slices);
        assert_eq!(s.slices.iter().map(|x| x.calls).sum::<u64>(), 1000);
        assert_eq!(s.slices.iter().map(|x| x.bytes).sum::<u64>(), 999 * 1000 / 2);
        assert!(s.slices.windows(2).all(|w| w[1].first_call == w[0].first_call + s.width));
    }

    #[test]
    fn a_long_path_keeps_its_end() {
        let long = "d/".repeat(300) + "file.bin";
        let s = shortened(long.as_bytes());
        assert_eq!(s.chars().count() as u64, TRACE.path_chars);
        assert!(s.starts_with('…') && s.ends_with("/file.bin"));
    }
}
