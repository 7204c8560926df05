//! What the stream carries, and what the application must get out of it.
//!
//! The content depends on the workload: the 0..=255 counting pattern for the
//! plain read loops (so old links keep their digests), text lines for
//! `lines`, length-prefixed frames for `frames`, and bytes that are never 0
//! but for one NUL at a chosen position for `scan`. It is generated once per
//! experiment from the params (lengths drawn with the seed) and shared by
//! every reader and every stream.
//!
//! [`expected`] is the reference the correctness check compares against. It
//! is computed from the plain byte slice, with no reader involved, and says
//! exactly what a workload delivers to the application:
//! - `fixed`, `exact`, `bytes`, `to_end`, `lines`: every byte of the stream;
//! - `frames`: the payloads, in order, without their 4-byte headers;
//! - `scan`: the bytes before the first NUL (all of them if there is none).

use super::source::{counting_bytes, SplitMix64};
use super::workload::{Consume, DigestSink};
use crate::model::{LenRange, Params, Workload};

/// Keeps the content's draws apart from the chunk sizes' (same seed).
const CONTENT_SALT: u64 = 0x636F_6E74_656E_7473; // "contents"

/// The stream content for `params`.
pub fn generate(params: &Params) -> Vec<u8> {
    let len = params.len as usize;
    match params.workload {
        Workload::Fixed | Workload::Exact | Workload::Bytes | Workload::ToEnd => counting_bytes(len),
        Workload::Lines => lines(len, params.line, params.seed),
        Workload::Frames => frames(len, params.frame, params.seed),
        Workload::Scan => nul_at(len, params.nul),
    }
}

/// Words the lines are cut from (never a newline, never a NUL).
pub const TEXT: &[u8] = b"a buffer pays for itself when it turns many small reads into one large read \
and costs a copy when it does not; ";

fn draw(rng: &mut SplitMix64, range: LenRange) -> usize {
    (range.min + rng.below(range.max - range.min + 1)) as usize
}

/// Text lines whose lengths (without the `\n`) are drawn from `range`. The
/// stream is exactly `len` bytes: the last line is cut short where the
/// stream ends, and then has no `\n` (a case line readers must handle).
pub fn lines(len: usize, range: LenRange, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed ^ CONTENT_SALT);
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        let mut left = draw(&mut rng, range).min(len - out.len());
        let mut at = rng.below(TEXT.len() as u64) as usize;
        while left > 0 {
            let take = left.min(TEXT.len() - at);
            out.extend_from_slice(&TEXT[at..at + take]);
            left -= take;
            at = 0;
        }
        if out.len() < len {
            out.push(b'\n');
        }
    }
    out
}

/// Frames of a 4-byte big-endian payload length and a payload whose length
/// is drawn from `range`. The stream ends exactly on a frame boundary at
/// `len` bytes: the last frame takes whatever is left (so it may be shorter
/// than the range's minimum, or up to 3 bytes longer than its maximum, as a
/// remainder too short for a header of its own joins it). `len` must be 0 or
/// at least 4.
pub fn frames(len: usize, range: LenRange, seed: u64) -> Vec<u8> {
    assert!(len == 0 || len >= 4, "a frames stream holds at least one header");
    let mut rng = SplitMix64::new(seed ^ CONTENT_SALT);
    let mut out = Vec::with_capacity(len);
    let mut frame = 0u8;
    while out.len() < len {
        let left = len - out.len() - 4;
        let mut n = draw(&mut rng, range).min(left);
        if left - n < 4 {
            n = left;
        }
        out.extend_from_slice(&(n as u32).to_be_bytes());
        out.extend((0..n).map(|i| (i as u8) ^ frame));
        frame = frame.wrapping_add(1);
    }
    out
}

/// Bytes 1, 2, …, 255 repeating (never 0), with a single NUL at `nul` when
/// that is inside the stream.
pub fn nul_at(len: usize, nul: u64) -> Vec<u8> {
    let mut out: Vec<u8> = (0..len).map(|i| (i % 255) as u8 + 1).collect();
    if let Some(b) = usize::try_from(nul).ok().and_then(|i| out.get_mut(i)) {
        *b = 0;
    }
    out
}

/// What one stream must deliver to the application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// Digest of the delivered bytes, as a [`DigestSink`] gives it.
    pub digest: u64,
    /// Bytes the application receives from the stream ([`super::workload::AppCounts::bytes`]).
    pub bytes: u64,
}

/// The reference for one stream of `data` under `workload`, from the plain
/// slice (see the module docs for what is digested).
pub fn expected(workload: Workload, data: &[u8]) -> Expected {
    let mut d = DigestSink::default();
    let bytes = match workload {
        Workload::Frames => {
            let mut at = 0;
            while at + 4 <= data.len() {
                let n = u32::from_be_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]) as usize;
                let end = (at + 4 + n).min(data.len());
                d.take(&data[at + 4..end]);
                at = end;
            }
            data.len()
        }
        Workload::Scan => {
            let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
            d.take(&data[..end]);
            end
        }
        _ => {
            d.take(data);
            data.len()
        }
    };
    Expected { digest: d.value(), bytes: bytes as u64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_have_lengths_in_range_and_fill_the_stream_exactly() {
        let range = LenRange { min: 3, max: 9 };
        let text = lines(10_000, range, 5);
        assert_eq!(text.len(), 10_000);
        assert!(!text.contains(&0));
        let parts: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        for line in &parts[..parts.len() - 1] {
            assert!((3..=9).contains(&line.len()), "{}", line.len());
        }
        assert!(parts.last().unwrap().len() <= 9);
        assert_eq!(lines(10_000, range, 5), text, "same seed, same text");
    }

    #[test]
    fn frames_parse_back_and_end_on_a_boundary() {
        for len in [0, 4, 5, 7, 8, 1000, 4096, 65_536] {
            let data = frames(len, LenRange { min: 0, max: 300 }, 9);
            assert_eq!(data.len(), len);
            let mut at = 0;
            let mut count = 0;
            while at < data.len() {
                let n = u32::from_be_bytes(data[at..at + 4].try_into().unwrap()) as usize;
                at += 4 + n;
                count += 1;
            }
            assert_eq!(at, len, "frames end exactly at the stream's end");
            assert!(len == 0 || count >= 1);
        }
    }

    #[test]
    fn scan_content_has_one_nul_where_asked() {
        let data = nul_at(1000, 700);
        assert_eq!(data.iter().filter(|&&b| b == 0).count(), 1);
        assert_eq!(data[700], 0);
        assert!(!nul_at(1000, 1000).contains(&0));
        assert_eq!(expected(Workload::Scan, &data).bytes, 700);
        assert_eq!(expected(Workload::Scan, &nul_at(1000, 5000)).bytes, 1000);
    }

    #[test]
    fn frame_reference_digests_payloads_only() {
        let data = [0, 0, 0, 2, b'h', b'i', 0, 0, 0, 1, b'!'];
        let mut d = DigestSink::default();
        d.take(b"hi!");
        assert_eq!(expected(Workload::Frames, &data), Expected { digest: d.value(), bytes: 11 });
    }
}
