//! What the page's settings forms say about each setting and how they edit
//! it: its label, the hint under it and its unit, the control that edits
//! it, where it lives in the params, its limits, and the group of the form
//! it sits in, per lab and link key. The page's forms
//! (`web/src/labs/*/settings.ts`) are built from this table through the
//! schema, and the sweep's axes ([`super::schema::sweep_axis`]) take their
//! words from it. Limits and defaults are the model's ([`crate::model::LIMITS`]).

use serde::Serialize;

use crate::model::{key, Bounds, Lab, LIMITS, RECORD_BYTES};

/// How a form edits a setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Control {
    /// A size in bytes: a power-of-two slider and a text box that takes 8K, 1M.
    Size,
    /// A whole number: a text box, and a slider over the page's stops.
    Count,
    /// On or off.
    Flag,
    /// A size in bytes, or off (0): a check box, and the size's slider and box while on.
    SizeOrOff,
    /// A chunk model: presets, a range a–b, fixed, file, pipe.
    Chunk,
    /// A range of lengths a–b.
    LenRange,
    /// One or more of the schema's list for the key (readers, workload, cursors).
    Pick,
}

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
    /// How the form edits it.
    pub control: Control,
    /// Where it lives in the params: a field of `Params`, or `write.` and a field of its `write`.
    pub field: &'static str,
    /// The values it may take (sizes, counts and ranges).
    pub bounds: Option<Bounds>,
    /// The group behind "More settings" it sits in; none: the strip above the results.
    pub group: Option<&'static str>,
}

fn setting(lab: Lab, key: &'static str, label: &'static str, hint: &str) -> SettingInfo {
    SettingInfo { lab, key, label, hint: hint.to_owned(), unit: None, control: Control::Pick, field: "", bounds: None, group: None }
}

impl SettingInfo {
    fn edits(self, control: Control, field: &'static str, bounds: Option<Bounds>) -> SettingInfo {
        SettingInfo { control, field, bounds, ..self }
    }
    fn size(self, field: &'static str, bounds: Bounds) -> SettingInfo {
        self.edits(Control::Size, field, Some(bounds))
    }
    fn size_or_off(self, field: &'static str, bounds: Bounds) -> SettingInfo {
        self.edits(Control::SizeOrOff, field, Some(bounds))
    }
    fn count(self, field: &'static str, bounds: Bounds) -> SettingInfo {
        self.edits(Control::Count, field, Some(bounds))
    }
    fn flag(self, field: &'static str) -> SettingInfo {
        self.edits(Control::Flag, field, None)
    }
    fn chunk(self, field: &'static str) -> SettingInfo {
        self.edits(Control::Chunk, field, Some(LIMITS.chunk))
    }
    fn len_range(self, field: &'static str, bounds: Bounds) -> SettingInfo {
        self.edits(Control::LenRange, field, Some(bounds))
    }
    fn pick(self, field: &'static str) -> SettingInfo {
        self.edits(Control::Pick, field, None)
    }
    fn unit(self, unit: &'static str) -> SettingInfo {
        SettingInfo { unit: Some(unit), ..self }
    }
    /// In the group `title` behind "More settings".
    fn more(self, title: &'static str) -> SettingInfo {
        SettingInfo { group: Some(title), ..self }
    }
}

/// Every setting of both forms, read lab first, each form in its order:
/// the strip's settings, then each group's.
pub fn settings() -> Vec<SettingInfo> {
    use Lab::{Read, Write};
    vec![
        setting(Read, key::CAP, "Buffer capacity", "The BufReaders' buffer (std, tokio, futures); the chained reader's block.")
            .size("cap", LIMITS.cap),
        setting(Read, key::READ_SIZE, "Read size", "Bytes the application asks for per read call.").size("rs", LIMITS.rs),
        setting(Read, key::CHUNK, "Chunking", "").chunk("chunk"),
        setting(Read, key::READERS, "Readers", "").pick("readers"),
        setting(Read, key::LEN, "Stream length", "Bytes the application reads in total.").size("len", LIMITS.len).more("Stream"),
        setting(Read, key::SEED, "Seed", "Same seed, same chunk sizes, in every browser and natively.")
            .count("seed", LIMITS.seed)
            .more("Stream"),
        setting(
            Read,
            key::STREAMS,
            "Streams",
            "Independent sources, each with its own reader, read in turn (round-robin) as a server serves connections.",
        )
        .count("streams", LIMITS.streams)
        .more("Stream"),
        setting(Read, key::WORKLOAD, "Workload", "").pick("workload").more("Application"),
        setting(Read, key::LINE, "Line lengths", "Bytes per line before the newline, drawn with the seed.")
            .len_range("line", LIMITS.line)
            .more("Application"),
        setting(Read, key::FRAME, "Payload lengths", "Bytes after each frame's 4-byte length, drawn with the seed.")
            .len_range("frame", LIMITS.frame)
            .more("Application"),
        setting(
            Read,
            key::REUSE,
            "Reuse one payload buffer",
            "std and unbuffered readers read every payload into one buffer instead of a new Vec per frame.",
        )
        .flag("reuse")
        .more("Application"),
        setting(
            Read,
            key::NUL,
            "NUL position",
            "Offset of the one NUL byte. At or past the stream's end there is none, and the whole stream is scanned.",
        )
        .size("nul", LIMITS.nul)
        .more("Application"),
        setting(
            Read,
            key::POOL,
            "Block pool",
            "Chained reader: blocks read through go back to a pool and are handed out again. Off, every block is a fresh allocation.",
        )
        .flag("pool")
        .more("Chained reader"),
        setting(
            Read,
            key::PEND,
            "Not ready (Pending) before",
            "Async readers: the share of source reads the socket is not yet readable for, drawn with the seed. \
             The first poll then gets Pending and the next the chunk; it costs a poll, never a source read.",
        )
        .count("pend", LIMITS.pend)
        .unit("% of reads")
        .more("Async readers"),
        setting(
            Read,
            key::SYS,
            "Cost per source read",
            "Modelled, not measured: `buflab real` fits it, with the cost per KiB, to real reads of several sizes.",
        )
        .count("sys", LIMITS.sys)
        .unit("ns")
        .more("I/O model"),
        setting(
            Read,
            key::SYS_KIB,
            "Cost per KiB read",
            "Modelled, on top of the cost per read: a real read(2) copies every byte it returns.",
        )
        .count("sys_kib", LIMITS.sys_kib)
        .unit("ns per KiB")
        .more("I/O model"),
        setting(
            Read,
            key::RATE,
            "Arrival rate",
            "How fast the pieces arrive (the writer's pace). Off: each read gets one fresh piece, a reader that is \
             always waiting. Set: a read gets what has arrived by the reader's modelled clock, so a reader behind \
             a fast writer finds pieces joined.",
        )
        .size_or_off("rate", LIMITS.rate)
        .unit("bytes/s")
        .more("I/O model"),
        setting(
            Read,
            key::WORK,
            "Work per piece received",
            "Modelled time the application spends on each piece of data it gets (parsing, computing) before it \
             reads again; with an arrival rate it decides whether the reader keeps up. `buflab real` spends it for real.",
        )
        .count("work", LIMITS.work)
        .unit("ns per piece")
        .more("I/O model"),
        setting(Write, key::FLAVOURS, "Cursors compared", "").pick("write.flavours"),
        SettingInfo {
            hint: format!(
                "Records of {RECORD_BYTES} bytes serialized with serde + bincode per run (2K = 32 KiB, as in the write-cursor article)."
            ),
            ..setting(Write, key::RECORDS, "Records", "").size("write.records", LIMITS.records)
        },
        setting(
            Write,
            key::INIT_CAP,
            "Initial capacity (growable)",
            "What the growable cursors start with. 0: they grow from nothing, and reallocate on the way.",
        )
        .size("write.init_cap", LIMITS.init_cap),
        setting(
            Write,
            key::FIXED_BUF,
            "Buffer size (fixed)",
            "Length of the fixed cursors' buffer. Smaller than the records' bytes ends in a WriteZero error.",
        )
        .size("write.buf", LIMITS.buf),
        setting(Write, key::WRITE_LEN, "Bytes written", "Bytes the application writes to the sink in total.")
            .size("write.len", LIMITS.wlen)
            .more(SINK_GROUP),
        setting(Write, key::WRITE_SIZE, "Write size", "Bytes the application hands over in each write_all call.")
            .size("write.ws", LIMITS.ws)
            .more(SINK_GROUP),
        setting(Write, key::SINK, "Sink accepts", "").chunk("write.sink").more(SINK_GROUP),
        setting(Write, key::SEED, "Seed", "Draws the sink's chunk sizes (shared with the read lab).").count("seed", LIMITS.seed).more(SINK_GROUP),
        setting(Write, key::WRITE_CAP, "BufWriter capacity", "Size of std BufWriter's buffer (unused by direct writes).")
            .size("write.cap", LIMITS.wcap)
            .more(SINK_GROUP),
        setting(
            Write,
            key::SYS,
            "Cost per sink write",
            "Modelled, not measured: a real write(2) costs about 100 ns to a few µs (shared with the read lab).",
        )
        .count("sys", LIMITS.sys)
        .unit("ns")
        .more("I/O model"),
    ]
}

/// The write lab's group of the BufWriter experiment.
const SINK_GROUP: &str = "BufWriter over a sink";

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
    fn every_setting_edits_a_real_field_within_the_models_limits() {
        let defaults = serde_json::to_value(crate::model::Params::default()).unwrap();
        for s in settings() {
            let value = s.field.split('.').try_fold(&defaults, |v, part| v.get(part));
            let value = value.unwrap_or_else(|| panic!("{:?} {}: no params field {:?}", s.lab, s.key, s.field));
            let (number, bounded) = (value.as_u64(), s.bounds.is_some());
            match s.control {
                Control::Size | Control::Count => assert!(bounded && s.bounds.unwrap().contains(number.unwrap()), "{}", s.key),
                Control::SizeOrOff => assert!(bounded && (number == Some(0) || s.bounds.unwrap().contains(number.unwrap())), "{}", s.key),
                Control::Flag => assert!(value.is_boolean() && !bounded, "{}", s.key),
                Control::LenRange => assert!(value.get("min").is_some() && bounded, "{}", s.key),
                Control::Chunk => assert!(value.get("kind").is_some() && bounded, "{}", s.key),
                Control::Pick => assert!(!bounded, "{}", s.key),
            }
        }
    }

    /// The form and the link agree on where a setting lives: a link that sets
    /// the key to another value than the default decodes to that value at the
    /// setting's `field`.
    #[test]
    fn each_setting_edits_the_field_its_link_key_reads() {
        let at = |json: &serde_json::Value, field: &str| field.split('.').fold(json.clone(), |v, part| v[part].clone());
        let defaults = serde_json::to_value(crate::model::Params::default()).unwrap();
        for s in settings() {
            let default = at(&defaults, s.field);
            let (raw, expected) = match s.control {
                Control::Size | Control::Count | Control::SizeOrOff => {
                    let b = s.bounds.unwrap();
                    let v = if default.as_u64() != Some(b.min) { b.min } else { b.min + 1 };
                    (v.to_string(), serde_json::json!(v))
                }
                Control::Flag => (if default == true { "off" } else { "on" }.to_string(), serde_json::json!(default != true)),
                Control::LenRange => {
                    let b = s.bounds.unwrap();
                    (format!("{}-{}", b.min, b.min + 1), serde_json::json!({ "min": b.min, "max": b.min + 1 }))
                }
                Control::Chunk => {
                    let kind = if default["kind"] == "pipe" { "file" } else { "pipe" };
                    (kind.to_string(), serde_json::json!({ "kind": kind }))
                }
                Control::Pick => continue,
            };
            let d = crate::link::decode(&format!("{}={raw}", s.key));
            assert!(d.notices.is_empty(), "{:?} {}={raw}: {:?}", s.lab, s.key, d.notices);
            assert_eq!(at(&serde_json::to_value(&d.params).unwrap(), s.field), expected, "{:?} {}", s.lab, s.key);
            if s.control == Control::SizeOrOff {
                let off = crate::link::decode(&format!("{}=off", s.key));
                assert!(off.notices.is_empty(), "{}=off: {:?}", s.key, off.notices);
                assert_eq!(at(&serde_json::to_value(&off.params).unwrap(), s.field), serde_json::json!(0), "{}=off", s.key);
            }
        }
    }

    #[test]
    fn a_forms_groups_follow_its_strip_each_group_in_one_run() {
        for lab in [Lab::Read, Lab::Write] {
            let groups: Vec<Option<&str>> = settings().into_iter().filter(|s| s.lab == lab).map(|s| s.group).collect();
            let mut seen: Vec<Option<&str>> = Vec::new();
            for g in groups {
                if seen.last() != Some(&g) {
                    assert!(!seen.contains(&g), "{lab:?}: group {g:?} in two places");
                    assert!(g.is_some() || seen.is_empty(), "{lab:?}: a strip setting after a group");
                    seen.push(g);
                }
            }
        }
    }

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
