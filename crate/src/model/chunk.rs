//! How a simulated stream is cut into pieces: one piece per read call at
//! most. A read request of `n` bytes is answered with at most
//! `min(n, remaining, c)` bytes, `c` being the next chunk size. The sizes a
//! model and seed give are part of the link contract (the engine's
//! `source::Chunker` draws them).

use serde::{Deserialize, Serialize};

/// How the stream is cut into pieces, one piece per read call at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ChunkModel {
    /// Seeded sizes drawn uniformly from `min..=max`, like packets arriving
    /// from a network.
    Uniform { min: usize, max: usize },
    /// Every read call gets at most `size` bytes.
    Fixed { size: usize },
    /// A regular file: the whole request is answered.
    File,
    /// A pipe: at most [`PIPE_CHUNK`] bytes per read, Linux's default pipe
    /// buffer.
    Pipe,
}

/// Capacity of a Linux pipe buffer, the most one `read(2)` on a pipe returns.
pub const PIPE_CHUNK: usize = 64 * 1024;

/// A named network chunking from the Monibuca article's benchmark.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Preset {
    pub id: &'static str,
    pub min: usize,
    pub max: usize,
    pub about: &'static str,
}

/// The four network conditions the Monibuca article measures its readers under.
pub const PRESETS: [Preset; 4] = [
    Preset { id: "good", min: 1024, max: 4096, about: "good network: 1–4 KiB per read" },
    Preset { id: "normal", min: 256, max: 2048, about: "normal network: 256 B–2 KiB per read" },
    Preset { id: "poor", min: 64, max: 512, about: "poor network: 64–512 B per read" },
    Preset { id: "worst", min: 1, max: 128, about: "worst case: 1–128 B per read" },
];

impl ChunkModel {
    /// The preset with this name, as a uniform model.
    pub fn preset(name: &str) -> Option<ChunkModel> {
        PRESETS.iter().find(|p| p.id == name).map(|p| ChunkModel::Uniform { min: p.min, max: p.max })
    }

    /// The most bytes one piece of this model can hold (`usize::MAX` for a file).
    pub fn max_piece(&self) -> usize {
        match *self {
            ChunkModel::Uniform { max, .. } => max,
            ChunkModel::Fixed { size } => size,
            ChunkModel::File => usize::MAX,
            ChunkModel::Pipe => PIPE_CHUNK,
        }
    }

    /// The preset this model equals, if any (links print its name).
    pub fn preset_name(&self) -> Option<&'static str> {
        match *self {
            ChunkModel::Uniform { min, max } => PRESETS.iter().find(|p| p.min == min && p.max == max).map(|p| p.id),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip_by_name() {
        for p in PRESETS {
            assert_eq!(ChunkModel::preset(p.id).unwrap().preset_name(), Some(p.id));
        }
        assert_eq!(ChunkModel::Uniform { min: 2, max: 3 }.preset_name(), None);
    }

    #[test]
    fn reads_back_what_it_writes_and_names_what_is_missing() {
        for model in [ChunkModel::Uniform { min: 1, max: 128 }, ChunkModel::Fixed { size: 7 }, ChunkModel::File, ChunkModel::Pipe] {
            let json = serde_json::to_string(&model).unwrap();
            assert_eq!(serde_json::from_str::<ChunkModel>(&json).unwrap(), model, "{json}");
        }
        let err = |json| serde_json::from_str::<ChunkModel>(json).unwrap_err().to_string();
        assert!(err(r#"{"kind": "uniform", "min": 1}"#).starts_with("missing field `max`"));
        assert!(err(r#"{"kind": "fixed"}"#).starts_with("missing field `size`"));
        assert!(err(r#"{"kind": "gzip"}"#).starts_with("unknown variant `gzip`"));
        assert!(err(r#"{"size": 4}"#).starts_with("missing field `kind`"));
        // Fields another kind would use are ignored, as the derive ignores them.
        assert_eq!(serde_json::from_str::<ChunkModel>(r#"{"kind": "file", "size": 4}"#).unwrap(), ChunkModel::File);
    }
}
