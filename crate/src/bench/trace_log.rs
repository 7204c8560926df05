//! Made-up strace logs of any length, generated a chunk at a time (never
//! held whole): for timing the log reader (`crate/examples/trace_speed.rs`,
//! `scripts/trace-speed.mjs` reads what `buflab trace` reads) and for
//! testing its bounds with more lines than a test could keep.

use std::fmt::Write as _;

use crate::engine::source::SplitMix64;

/// What the lines look like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One process reading a file one byte at a time, as `strace -f -tt -T
    /// -y` prints it: the log a request sequence compresses best.
    OneByte,
    /// The reader's worst case: eight processes (threads), files opened and
    /// closed every few hundred lines (more descriptors than are kept),
    /// reads of random sizes asked and returned (no two runs alike), calls
    /// split by other processes' lines, signals, errors, and lines that are
    /// not strace's.
    Mixed,
    /// Every table at its bound: 1,100 descriptors with the longest names
    /// kept, opened once and read in turn by 4,096 threads, each read of a
    /// new random size (no two runs alike), until the request sequences
    /// are full.
    Spread,
}

/// A log of `lines` lines of `shape`, seeded.
#[derive(Clone, Debug)]
pub struct SyntheticLog {
    shape: Shape,
    lines: u64,
    written: u64,
    rng: SplitMix64,
    /// Per process: the open descriptor's path number, and a call split
    /// waiting for its second half (`asked`, `returned`).
    open: [u64; 8],
    split: [Option<(u64, u64)>; 8],
    files: u64,
}

impl SyntheticLog {
    pub fn new(shape: Shape, lines: u64, seed: u64) -> SyntheticLog {
        SyntheticLog { shape, lines, written: 0, rng: SplitMix64::new(seed), open: [0; 8], split: [None; 8], files: 0 }
    }

    /// Appends whole lines to `out` until it holds at least `bytes` bytes
    /// or the log has ended; false once it has ended.
    pub fn fill(&mut self, out: &mut Vec<u8>, bytes: usize) -> bool {
        let mut text = String::with_capacity(bytes + 256);
        while text.len() < bytes && self.written < self.lines {
            match self.shape {
                Shape::OneByte => self.one_byte_line(&mut text),
                Shape::Mixed => self.mixed_line(&mut text),
                Shape::Spread => self.spread_line(&mut text),
            }
            self.written += 1;
        }
        out.extend_from_slice(text.as_bytes());
        self.written < self.lines
    }

    fn time(&self) -> String {
        let us = self.written * 3;
        format!("{:02}:{:02}:{:02}.{:06}", 10 + us / 3_600_000_000 % 14, us / 60_000_000 % 60, us / 1_000_000 % 60, us % 1_000_000)
    }

    fn one_byte_line(&mut self, out: &mut String) {
        let t = self.time();
        let _ = match self.written {
            0 => writeln!(out, "4242 {t} openat(AT_FDCWD</home/me>, \"data.bin\", O_RDONLY|O_CLOEXEC) = 3</home/me/data.bin> <0.000021>"),
            n if n + 1 == self.lines => writeln!(out, "4242 {t} read(3</home/me/data.bin>, \"\", 1) = 0 <0.000004>"),
            n => writeln!(out, "4242 {t} read(3</home/me/data.bin>, \"{}\", 1) = 1 <0.000004>", escaped(n as u8)),
        };
    }

    fn mixed_line(&mut self, out: &mut String) {
        let t = self.time();
        let r = self.rng.next_u64();
        let p = (r % 8) as usize;
        let pid = 5000 + p as u64;
        if let Some((asked, returned)) = self.split[p].take() {
            let _ = writeln!(out, "{pid} {t} <... read resumed>\"{}\\\"),\"..., {asked}) = {returned} <0.000011>", escaped(r as u8));
            return;
        }
        let path = self.open[p];
        let asked = 1 + (r >> 8) % 70_000;
        let returned = (r >> 32) % (asked + 1);
        let _ = match (r >> 24) % 100 {
            0 => writeln!(out, "garbage line {r:x} \"unbalanced ( quote"),
            1 => writeln!(out, "{pid} {t} --- SIGCHLD {{si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid={r}}} ---"),
            2 => writeln!(out, "{pid} {t} read(3</data/{path}.bin>, 0x7ffd00001000, {asked}) = -1 EAGAIN (Resource temporarily unavailable) <0.000002>"),
            3 => writeln!(out, "{pid} {t} mmap(NULL, {asked}, PROT_READ, MAP_PRIVATE, 3, 0) = 0x7f0000000000 <0.000009>"),
            4..=5 => {
                self.files += 1;
                self.open[p] = self.files;
                writeln!(out, "{pid} {t} openat(AT_FDCWD, \"/data/{}.bin\", O_RDONLY) = 3</data/{}.bin> <0.000015>", self.files, self.files)
            }
            6..=15 => {
                self.split[p] = Some((asked, returned));
                writeln!(out, "{pid} {t} read(3</data/{path}.bin>,  <unfinished ...>")
            }
            _ => writeln!(out, "{pid} {t} read(3</data/{path}.bin>, \"{}(, \\\"x\"..., {asked}) = {returned} <0.000011>", escaped(r as u8)),
        };
    }
}

impl SyntheticLog {
    fn spread_line(&mut self, out: &mut String) {
        const FILES: u64 = 1100;
        let n = self.written;
        let name = |f: u64| format!("/{}/{f:04}.bin", "d".repeat(crate::model::TRACE.path_chars as usize));
        if n < FILES {
            let _ = writeln!(out, "1 openat(AT_FDCWD, \"{}\", O_RDONLY) = {} <0.000015>", name(n), 3 + n);
            return;
        }
        let r = self.rng.next_u64();
        let f = n % FILES;
        let asked = 1 + (r >> 8) % 1_000_000;
        let returned = (r >> 32) % (asked + 1);
        let _ = writeln!(out, "{} read({}, \"\"..., {asked}) = {returned} <0.000011>", 2 + n % 4096, 3 + f);
    }
}

/// A byte as strace shows it in a string.
fn escaped(b: u8) -> String {
    match b {
        b'"' => "\\\"".into(),
        b'\\' => "\\\\".into(),
        b'\n' => "\\n".into(),
        0x20..=0x7e => (b as char).to_string(),
        b => format!("\\{b:o}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::trace::read_text;

    #[test]
    fn a_synthetic_log_has_its_lines_and_reads_as_strace() {
        for shape in [Shape::OneByte, Shape::Mixed, Shape::Spread] {
            let mut log = SyntheticLog::new(shape, 5000, 7);
            let mut text = Vec::new();
            while log.fill(&mut text, 1000) {}
            assert_eq!(text.iter().filter(|&&b| b == b'\n').count(), 5000);
            let r = read_text(&text).report;
            assert!(r.read_calls > 1000, "{shape:?}");
            if shape == Shape::OneByte {
                assert_eq!((r.skipped.lines, r.descriptors.len(), r.descriptors[0].bytes), (0, 1, 4998));
            } else if shape == Shape::Spread {
                assert!(r.skipped.lines == 0 && r.processes > 2000, "{:?}", r.processes);
            } else {
                assert!(r.skipped.lines > 0 && r.unfinished.joined > 100 && r.descriptors.len() > 50, "{:?}", r.unfinished);
            }
        }
    }
}
