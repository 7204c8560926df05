//! Proptest strategies the property tests share.

use buflab::model::ChunkModel;
use proptest::prelude::*;

/// Every chunk model, including 1-byte fixed chunks.
pub fn chunk_model() -> impl Strategy<Value = ChunkModel> {
    prop_oneof![
        (1usize..64, 0usize..300).prop_map(|(min, extra)| ChunkModel::Uniform { min, max: min + extra }),
        Just(ChunkModel::Fixed { size: 1 }),
        (1usize..600).prop_map(|size| ChunkModel::Fixed { size }),
        Just(ChunkModel::File),
        Just(ChunkModel::Pipe),
    ]
}

/// Chunk scripts of up to `max_len` chunks, heavy in 1-byte and empty
/// (interrupted) chunks.
pub fn chunk_script(max_len: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(prop_oneof![3 => Just(0usize), 3 => Just(1usize), 4 => 1usize..700], 0..max_len)
}
