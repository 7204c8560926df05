//! How the application reads: the loops that drive a reader.
//!
//! A workload hands every byte it receives to a [`Consume`]: the verified run
//! uses [`DigestSink`] (hashes every byte), timed runs use [`CountSink`] (only
//! keeps the optimizer honest), so hashing never shows up in the timings.

use std::io::{self, ErrorKind, Read};

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::Xxh3;

use crate::source::Probe;

/// The workloads a person can pick (the `wl` link key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    /// `read` calls of the read size until one returns 0.
    Fixed,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct WorkloadInfo {
    pub id: Workload,
    pub label: &'static str,
    pub about: &'static str,
}

pub const WORKLOADS: [WorkloadInfo; 1] = [WorkloadInfo {
    id: Workload::Fixed,
    label: "fixed-size reads",
    about: "The application calls read() with a buffer of the read size until it returns 0, \
            as a byte-at-a-time parser or a copy loop does.",
}];

impl Workload {
    pub fn id(self) -> &'static str {
        match self {
            Workload::Fixed => "fixed",
        }
    }

    pub fn from_id(id: &str) -> Option<Workload> {
        WORKLOADS.iter().map(|w| w.id).find(|w| w.id() == id)
    }
}

/// What the application did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AppCounts {
    /// Calls the application made on the reader, the final one included.
    pub app_reads: u64,
    /// Bytes the application received.
    pub bytes: u64,
}

/// Receives the bytes the application read.
pub trait Consume {
    fn take(&mut self, bytes: &[u8]);
}

/// Hashes everything received: the correctness check.
#[derive(Default)]
pub struct DigestSink(Xxh3);

impl DigestSink {
    /// The digest as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0.digest())
    }
}

impl Consume for DigestSink {
    #[inline]
    fn take(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

/// The digest of a whole byte string, as [`DigestSink`] would give it.
pub fn digest_of(bytes: &[u8]) -> String {
    let mut d = DigestSink::default();
    d.take(bytes);
    d.hex()
}

/// Looks at one byte of each read so the reads cannot be optimized away.
#[derive(Default)]
pub struct CountSink(pub u64);

impl Consume for CountSink {
    #[inline]
    fn take(&mut self, bytes: &[u8]) {
        self.0 = self.0.wrapping_add(bytes.len() as u64 + u64::from(bytes[0]));
    }
}

/// Runs `workload` against `reader` with `app_buf` as the application's buffer.
pub fn drive<R: Read, C: Consume>(
    workload: Workload,
    reader: &mut R,
    app_buf: &mut [u8],
    probe: &Probe,
    sink: &mut C,
) -> io::Result<AppCounts> {
    match workload {
        Workload::Fixed => fixed_reads(reader, app_buf, probe, sink),
    }
}

fn fixed_reads<R: Read, C: Consume>(
    reader: &mut R,
    buf: &mut [u8],
    probe: &Probe,
    sink: &mut C,
) -> io::Result<AppCounts> {
    let mut counts = AppCounts::default();
    probe.set_app_window(buf);
    loop {
        counts.app_reads += 1;
        let n = match reader.read(buf) {
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            return Ok(counts);
        }
        counts.bytes += n as u64;
        sink.take(&buf[..n]);
    }
}
