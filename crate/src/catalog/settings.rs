//! What the page's settings forms say about each setting: its label, the
//! hint under it and its unit, per lab and link key. The page's forms
//! (`web/src/labs/*/settings.ts`) take their words from here through the
//! schema, and so do the sweep's axes ([`super::schema::sweep_axis`]).
//! Limits and defaults are the model's ([`crate::model::LIMITS`]).

use serde::Serialize;

use crate::model::{key, Lab, RECORD_BYTES};

/// One setting of one lab's form.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SettingInfo {
    pub lab: Lab,
    /// The link key the setting writes.
    pub key: &'static str,
    pub label: &'static str,
    /// The sentence under the field (empty where the field writes its own notes).
    pub hint: String,
    /// The unit after a plain number's box ("ns"); sizes carry their own suffixes.
    pub unit: Option<&'static str>,
}

fn setting(lab: Lab, key: &'static str, label: &'static str, hint: &str) -> SettingInfo {
    SettingInfo { lab, key, label, hint: hint.to_owned(), unit: None }
}

/// Every setting of both forms, read lab first.
pub fn settings() -> Vec<SettingInfo> {
    use Lab::{Read, Write};
    vec![
        setting(Read, key::CAP, "Buffer capacity", "The BufReaders' buffer (std, tokio, futures); the chained reader's block."),
        setting(Read, key::READ_SIZE, "Read size", "Bytes the application asks for per read call."),
        setting(Read, key::CHUNK, "Chunking", ""),
        setting(Read, key::READERS, "Readers", ""),
        setting(Read, key::LEN, "Stream length", "Bytes the application reads in total."),
        setting(Read, key::SEED, "Seed", "Same seed, same chunk sizes, in every browser and natively."),
        setting(
            Read,
            key::STREAMS,
            "Streams",
            "Independent sources, each with its own reader, read in turn (round-robin) as a server serves connections.",
        ),
        setting(Read, key::WORKLOAD, "Workload", ""),
        setting(Read, key::LINE, "Line lengths", "Bytes per line before the newline, drawn with the seed."),
        setting(Read, key::FRAME, "Payload lengths", "Bytes after each frame's 4-byte length, drawn with the seed."),
        setting(
            Read,
            key::REUSE,
            "Reuse one payload buffer",
            "std and unbuffered readers read every payload into one buffer instead of a new Vec per frame.",
        ),
        setting(
            Read,
            key::NUL,
            "NUL position",
            "Offset of the one NUL byte. At or past the stream's end there is none, and the whole stream is scanned.",
        ),
        setting(
            Read,
            key::POOL,
            "Block pool",
            "Chained reader: blocks read through go back to a pool and are handed out again. Off, every block is a fresh allocation.",
        ),
        SettingInfo {
            unit: Some("% of reads"),
            ..setting(
                Read,
                key::PEND,
                "Not ready (Pending) before",
                "Async readers: the share of source reads the socket is not yet readable for, drawn with the seed. \
                 The first poll then gets Pending and the next the chunk; it costs a poll, never a source read.",
            )
        },
        SettingInfo {
            unit: Some("ns"),
            ..setting(
                Read,
                key::SYS,
                "Cost per source read",
                "Modelled, not measured: `buflab real` fits it, with the cost per KiB, to real reads of several sizes.",
            )
        },
        SettingInfo {
            unit: Some("ns per KiB"),
            ..setting(
                Read,
                key::SYS_KIB,
                "Cost per KiB read",
                "Modelled, on top of the cost per read: a real read(2) copies every byte it returns.",
            )
        },
        SettingInfo {
            unit: Some("bytes/s"),
            ..setting(
                Read,
                key::RATE,
                "Arrival rate",
                "How fast the pieces arrive (the writer's pace). Off: each read gets one fresh piece, a reader that is \
                 always waiting. Set: a read gets what has arrived by the reader's modelled clock, so a reader behind \
                 a fast writer finds pieces joined.",
            )
        },
        SettingInfo {
            unit: Some("ns per piece"),
            ..setting(
                Read,
                key::WORK,
                "Work per piece received",
                "Modelled time the application spends on each piece of data it gets (parsing, computing) before it \
                 reads again; with an arrival rate it decides whether the reader keeps up. `buflab real` spends it for real.",
            )
        },
        setting(Write, key::FLAVOURS, "Cursors compared", ""),
        SettingInfo {
            hint: format!(
                "Records of {RECORD_BYTES} bytes serialized with serde + bincode per run (2K = 32 KiB, as in the write-cursor article)."
            ),
            ..setting(Write, key::RECORDS, "Records", "")
        },
        setting(
            Write,
            key::INIT_CAP,
            "Initial capacity (growable)",
            "What the growable cursors start with. 0: they grow from nothing, and reallocate on the way.",
        ),
        setting(
            Write,
            key::FIXED_BUF,
            "Buffer size (fixed)",
            "Length of the fixed cursors' buffer. Smaller than the records' bytes ends in a WriteZero error.",
        ),
        setting(Write, key::WRITE_LEN, "Bytes written", "Bytes the application writes to the sink in total."),
        setting(Write, key::WRITE_SIZE, "Write size", "Bytes the application hands over in each write_all call."),
        setting(Write, key::SINK, "Sink accepts", ""),
        setting(Write, key::SEED, "Seed", "Draws the sink's chunk sizes (shared with the read lab)."),
        setting(Write, key::WRITE_CAP, "BufWriter capacity", "Size of std BufWriter's buffer (unused by direct writes)."),
        SettingInfo {
            unit: Some("ns"),
            ..setting(
                Write,
                key::SYS,
                "Cost per sink write",
                "Modelled, not measured: a real write(2) costs about 100 ns to a few µs (shared with the read lab).",
            )
        },
    ]
}

/// The label of `lab`'s setting for link key `key`.
pub fn label(lab: Lab, key: &str) -> &'static str {
    settings()
        .into_iter()
        .find(|s| s.lab == lab && s.key == key)
        .map(|s| s.label)
        .unwrap_or_else(|| panic!("no {lab:?} setting for link key {key}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::known_keys;

    #[test]
    fn every_setting_is_a_real_link_key_once_per_lab() {
        let known: Vec<&str> = known_keys().collect();
        let all = settings();
        for (i, s) in all.iter().enumerate() {
            assert!(known.contains(&s.key), "{}", s.key);
            assert!(!all[i + 1..].iter().any(|t| t.lab == s.lab && t.key == s.key), "{:?} {} twice", s.lab, s.key);
        }
    }
}
