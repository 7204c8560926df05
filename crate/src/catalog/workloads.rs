//! What the page says about each workload: what it models and what to look
//! for. The loops themselves are the engine's (`engine::workload`).

use serde::Serialize;

use crate::model::{key, Workload};

#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WorkloadInfo {
    pub id: Workload,
    pub label: &'static str,
    /// What the workload models.
    pub about: &'static str,
    /// What to look for in the results.
    pub look: &'static str,
    /// The link keys (= `Params` fields) this workload reads, besides the
    /// ones every workload uses; the page shows only these settings.
    pub keys: &'static [&'static str],
}

pub const WORKLOADS: [WorkloadInfo; 7] = [
    WorkloadInfo {
        id: Workload::Fixed,
        label: "fixed-size reads",
        about: "The application calls read() with a buffer of the read size until it returns 0, \
                as a byte-at-a-time parser or a copy loop does.",
        look: "Without a buffer every call is a source read. Raise the read size to the buffer \
               capacity: std then reads past its buffer, copies drop to zero and the buffer \
               no longer earns its keep.",
        keys: &[key::READ_SIZE],
    },
    WorkloadInfo {
        id: Workload::Exact,
        label: "read_exact records",
        about: "The application reads fixed-size records of the read size with read_exact, as a \
                decoder of fixed-width structs does; the last record is whatever is left.",
        look: "read_exact keeps calling read until the record is full, so with small chunks one \
               record can cost several source reads without a buffer.",
        keys: &[key::READ_SIZE],
    },
    WorkloadInfo {
        id: Workload::Bytes,
        label: "Read::bytes()",
        about: "The application walks the stream with Read::bytes(), one byte per call: seed \
                001's first scanner, which was slow on an unbuffered file.",
        look: "Unbuffered, each byte is a source read. std's BufReader serves bytes() from its \
               buffer; the chained reader serves it through its Read impl, one copied byte at a \
               time.",
        keys: &[],
    },
    WorkloadInfo {
        id: Workload::ToEnd,
        label: "read_to_end, then scan",
        about: "The application makes a Vec as large as the stream, fills it with read_to_end and \
                then scans it: the faster second version in the file-reading article.",
        look: "Every reader lets the source write straight into the big Vec, so source reads are \
               the same with or without a buffer; the buffer only adds an allocation.",
        keys: &[],
    },
    WorkloadInfo {
        id: Workload::Lines,
        label: "text lines",
        about: "The stream is text lines of the chosen lengths. std uses read_until, the chained \
                reader its read_line that lends slices of its blocks, and the unbuffered reader \
                reads one byte at a time so it never takes bytes of the next line.",
        look: "One source read per byte without a buffer. std copies every line into the \
               application's Vec; the chained reader copies nothing (a line that spans two \
               blocks arrives in two pieces).",
        keys: &[key::LINE],
    },
    WorkloadInfo {
        id: Workload::Frames,
        label: "length-prefixed frames",
        about: "Each frame is a 4-byte big-endian length and a payload of the chosen sizes, as in \
                the Monibuca article's protocol parsing. std and unbuffered read the header with read_exact \
                and the payload into a fresh Vec (or one reused buffer, if ticked); the chained \
                reader uses read_be(4) and read_range.",
        look: "Allocations: one Vec per frame against a few pooled blocks. Turn the block pool \
               off and every block becomes an allocation; tick reuse to see what a careful std \
               program saves.",
        keys: &[key::FRAME, key::REUSE],
    },
    WorkloadInfo {
        id: Workload::Scan,
        label: "scan to the first NUL",
        about: "The application counts bytes until the first NUL byte, the file-reading \
                article's test for a binary file. Buffered readers scan their buffer in place (fill_buf, consume); \
                the unbuffered reader reads chunks of the read size.",
        look: "Everyone stops at the NUL, so the source reads follow its position. Scanning in \
               place copies nothing; put the NUL past the end to scan the whole stream.",
        keys: &[key::READ_SIZE, key::NUL],
    },
];


/// What the page says about `w`.
pub fn workload(w: Workload) -> &'static WorkloadInfo {
    WORKLOADS.iter().find(|i| i.id == w).expect("every workload is listed in WORKLOADS")
}
