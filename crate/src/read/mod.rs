//! Reader strategies: how the application's reads reach the source.
//!
//! Each strategy is a real reader type over the same [`Source`]; nothing here
//! models a reader's behaviour, so every count the page shows is what that
//! type really did.

use std::io::{self, BufReader};

use serde::{Deserialize, Serialize};

use crate::source::Source;
use crate::workload::{self, AppCounts, Consume, Workload};

/// The readers a person can compare (the `rd` link key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReaderKind {
    /// The source itself: every application read is a source read.
    Unbuffered,
    /// `std::io::BufReader::with_capacity(cap, source)`.
    Std,
}

/// What the page and the CLI say about a reader.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ReaderInfo {
    pub id: ReaderKind,
    pub label: &'static str,
    pub about: &'static str,
}

/// Every reader, in the order the page lists them.
pub const READERS: [ReaderInfo; 2] = [
    ReaderInfo {
        id: ReaderKind::Unbuffered,
        label: "unbuffered Read",
        about: "Each application read goes straight to the source: one system call per read.",
    },
    ReaderInfo {
        id: ReaderKind::Std,
        label: "std BufReader",
        about: "std::io::BufReader fills its buffer with one large source read and hands out \
                copies of it; reads at least as large as the buffer bypass it.",
    },
];

impl ReaderKind {
    pub fn id(self) -> &'static str {
        match self {
            ReaderKind::Unbuffered => "unbuffered",
            ReaderKind::Std => "std",
        }
    }

    pub fn from_id(id: &str) -> Option<ReaderKind> {
        READERS.iter().map(|r| r.id).find(|k| k.id() == id)
    }

    pub fn info(self) -> &'static ReaderInfo {
        READERS.iter().find(|r| r.id == self).expect("every kind is listed in READERS")
    }
}

/// Runs `workload` through a reader of `kind` over `source`. `app_buf` is the
/// application's own buffer (its length is the read size), allocated by the
/// caller so it is not charged to the reader.
pub fn drive<C: Consume>(
    kind: ReaderKind,
    source: Source<'_>,
    cap: usize,
    workload: Workload,
    app_buf: &mut [u8],
    sink: &mut C,
) -> io::Result<AppCounts> {
    let probe = source.probe();
    // Monomorphised per reader type: a `dyn Read` would add an indirect call
    // to every 1-byte read and blur the comparison.
    match kind {
        ReaderKind::Unbuffered => {
            let mut reader = source;
            workload::drive(workload, &mut reader, app_buf, probe, sink)
        }
        ReaderKind::Std => {
            let mut reader = BufReader::with_capacity(cap, source);
            workload::drive(workload, &mut reader, app_buf, probe, sink)
        }
    }
}
