#![cfg(not(target_arch = "wasm32"))]
//! The chained reader: the behaviours Rust's std tests check for `BufReader`
//! (each run against std's reader too, to show the two agree), the case
//! Monibuca's own `BufReader` test checks, clean errors at an early end of
//! stream, and a model-based property test of the whole API over random
//! chunkings.

use std::io::{self, BufRead, BufReader, ErrorKind, Read};
use std::num::NonZeroUsize;

use buflab::engine::content;
use buflab::engine::heap::Lanes;
use buflab::engine::readers::chained::{BlockPool, ChainedReader};
use buflab::engine::readers::{drive_streams, ReaderConfig};
use buflab::engine::source::{counting_bytes, Chunker, Probe, Source};
use buflab::engine::workload::{self, DigestSink, Spec};
use buflab::link::decode as decode_link;
use buflab::model::{BlockCounts, ChunkModel, Id, LenRange, Params, ReaderKind, Workload};
use proptest::prelude::*;

fn pool(block_len: usize) -> BlockPool {
    BlockPool::new(NonZeroUsize::new(block_len).unwrap(), true)
}

/// std's `ShortReader` test double: each read returns the next length (a 0
/// is a zero-length read, not the end), then 0 for ever. It writes nothing;
/// the tests look at lengths only.
struct ShortReader {
    lengths: Vec<usize>,
}

impl Read for ShortReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.lengths.is_empty() {
            Ok(0)
        } else {
            Ok(self.lengths.remove(0).min(buf.len()))
        }
    }
}

fn short_reads_pass_through<R: Read>(mut reader: R) {
    let mut buf = [0u8; 2];
    let got: Vec<usize> = (0..7).map(|_| reader.read(&mut buf).unwrap()).collect();
    assert_eq!(got, [0, 1, 2, 0, 1, 0, 0]);
}

#[test]
fn short_reads_pass_through_and_a_zero_length_read_is_not_the_end() {
    short_reads_pass_through(BufReader::new(ShortReader { lengths: vec![0, 1, 2, 0, 1, 0] }));
    let p = pool(8);
    short_reads_pass_through(ChainedReader::new(ShortReader { lengths: vec![0, 1, 2, 0, 1, 0] }, &p));
}

/// A source over `data` whose reads return at most the scripted sizes in
/// turn (0 = an interrupted read).
fn scripted<'a>(data: &'a [u8], sizes: &[usize], probe: &'a Probe) -> Source<'a> {
    Source::with_chunker(data, Chunker::scripted(sizes.to_vec()), probe)
}

fn lines_until<B: BufRead>(mut reader: B) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let mut line = Vec::new();
        if reader.read_until(b'\n', &mut line).unwrap() == 0 {
            return out;
        }
        out.push(line);
    }
}

#[test]
fn read_until_and_read_line_cross_chunk_and_block_boundaries_and_end_without_newline() {
    let data = b"ab\ncdefg\n\nhi";
    let want: Vec<&[u8]> = vec![b"ab\n", b"cdefg\n", b"\n", b"hi"];
    for sizes in [vec![1], vec![2, 1], vec![0, 5, 0, 1], vec![100]] {
        let probe = Probe::default();
        assert_eq!(lines_until(BufReader::with_capacity(3, scripted(data, &sizes, &probe))), want, "std {sizes:?}");
        let p = pool(3);
        assert_eq!(lines_until(ChainedReader::new(scripted(data, &sizes, &probe), &p)), want, "chained {sizes:?}");

        // The zero-copy read_line: pieces of one line concatenate to it.
        let p = pool(3);
        let mut r = ChainedReader::new(scripted(data, &sizes, &probe), &p);
        let mut lines = Vec::new();
        loop {
            let mut line = Vec::new();
            let n = r.read_line(|piece| {
                assert!(!piece.is_empty());
                line.extend_from_slice(piece)
            });
            if n.unwrap() == 0 {
                break;
            }
            lines.push(line);
        }
        assert_eq!(lines, want, "read_line {sizes:?}");

        // std's String-appending read_line, reached through the trait.
        let p = pool(3);
        let mut r = ChainedReader::new(scripted(data, &sizes, &probe), &p);
        let mut text = String::new();
        while BufRead::read_line(&mut r, &mut text).unwrap() > 0 {}
        assert_eq!(text.as_bytes(), data);
    }
}

fn read_to_end_keeps_what_was_buffered<R: Read>(mut reader: R, data: &[u8]) {
    let mut two = [0u8; 2];
    assert_eq!(reader.read(&mut two).unwrap(), 2);
    let mut rest = Vec::new();
    assert_eq!(reader.read_to_end(&mut rest).unwrap(), data.len() - 2);
    assert_eq!(rest, &data[2..]);
}

#[test]
fn read_to_end_includes_bytes_already_buffered() {
    let data: Vec<u8> = (0..50).collect();
    let probe = Probe::default();
    read_to_end_keeps_what_was_buffered(BufReader::with_capacity(16, scripted(&data, &[7], &probe)), &data);
    let p = pool(16);
    let mut r = ChainedReader::new(scripted(&data, &[7], &probe), &p);
    read_to_end_keeps_what_was_buffered(&mut r, &data);
    // 5 bytes were still buffered after the 2-byte read: those are the copies;
    // the other 43 the source wrote straight into the Vec.
    let c = p.counts();
    assert_eq!((c.bytes_copied, c.bytes_direct), (2 + 5, 43));
}

#[test]
fn zero_capacity_is_handled_by_std_and_rejected_for_the_chained_reader() {
    // std handles it: with no buffer, every read bypasses it.
    let data: Vec<u8> = (0..100).collect();
    let probe = Probe::default();
    let mut all = Vec::new();
    let mut r = BufReader::with_capacity(0, scripted(&data, &[3], &probe));
    let mut byte = [0u8; 1];
    while r.read(&mut byte).unwrap() == 1 {
        all.push(byte[0]);
    }
    assert_eq!(all, data);
    // BufLab rejects it: `cap` is at least 1 (a link clamps with a notice,
    // structured params fail with a message naming the key), and the
    // chained reader's block length is a NonZeroUsize, so no 0 reaches it.
    assert_eq!(Params { cap: 0, ..Params::default() }.check().unwrap_err().key, "cap");
    let d = decode_link("cap=0");
    assert_eq!((d.params.cap, d.notices[0].key.as_str()), (1, "cap"));
    assert!(NonZeroUsize::new(0).is_none());
    // And the driver refuses rather than panics if handed one anyway.
    let mut sources = Lanes::with_capacity(1);
    sources.push(scripted(&data, &[3], &probe));
    let spec = Spec { workload: Workload::Fixed, rs: 1, len: data.len(), reuse: false };
    let mut sink = [DigestSink::default()];
    let err = drive_streams(ReaderKind::Chained, sources, &probe, ReaderConfig { cap: 0, pool: true }, &spec, &mut [0], &mut sink)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
}

#[test]
fn monibuca_case_two_byte_reads_five_byte_blocks() {
    // Monibuca's BufReader test: a source giving at most 2 bytes per read,
    // blocks of 5 bytes, the bytes 1..=20.
    let data: Vec<u8> = (1..=20).collect();
    let probe = Probe::default();
    let p = pool(5);
    let mut r = ChainedReader::new(scripted(&data, &[2], &probe), &p);
    assert_eq!(r.read_u8().unwrap(), 1);
    assert_eq!(r.read_be(4).unwrap(), 0x0203_0405, "a 4-byte integer across blocks");
    assert_eq!(r.read_u8().unwrap(), 6);
    let mut range = Vec::new();
    r.read_range(5, |piece| range.extend_from_slice(piece)).unwrap();
    assert_eq!(range, [7, 8, 9, 10, 11]);
    assert_eq!(r.read_u8().unwrap(), 12);
}

#[test]
fn empty_chunks_between_data_are_retried_by_every_operation() {
    let data: Vec<u8> = (0..40).collect();
    let sizes = [0, 3, 0, 0, 2, 0, 1];
    let probe = Probe::default();
    let p = pool(4);
    let mut r = ChainedReader::new(scripted(&data, &sizes, &probe), &p);
    assert_eq!(r.read_u8().unwrap(), 0);
    assert_eq!(r.read_be(3).unwrap(), 0x01_0203);
    r.skip(2).unwrap();
    let mut seen = Vec::new();
    r.read_range(6, |s| seen.extend_from_slice(s)).unwrap();
    assert_eq!(seen, [6, 7, 8, 9, 10, 11]);
    let peeked: Vec<u8> = r.peek(5).unwrap().flatten().copied().collect();
    assert_eq!(peeked, [12, 13, 14, 15, 16]);
    let mut exact = [0u8; 5];
    r.read_exact(&mut exact).unwrap();
    assert_eq!(exact, [12, 13, 14, 15, 16], "peek consumed nothing");
    // `read` and `fill_buf` pass an interrupted read on, as std's do.
    let probe = Probe::default();
    let mut r = ChainedReader::new(scripted(&data, &[0, 4], &probe), &p);
    assert_eq!(r.read(&mut [0u8; 2]).unwrap_err().kind(), ErrorKind::Interrupted);
    assert_eq!(r.fill_buf().unwrap(), [0, 1, 2, 3]);
}

#[test]
fn an_early_end_is_an_unexpected_eof_error_never_a_panic() {
    let data: Vec<u8> = (0..10).collect();
    let probe = Probe::default();
    let p = pool(4);
    let mut r = ChainedReader::new(scripted(&data, &[3], &probe), &p);
    r.skip(8).unwrap();
    let e = r.read_be(4).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEof);
    assert!(e.to_string().contains("4-byte integer"), "{e}");
    assert_eq!(r.buffered(), 2, "a failed integer read consumes nothing");
    assert_eq!(r.peek(3).unwrap_err().kind(), ErrorKind::UnexpectedEof);
    let mut got = Vec::new();
    let e = r.read_range(5, |s| got.extend_from_slice(s)).unwrap_err();
    assert_eq!((e.kind(), got.as_slice()), (ErrorKind::UnexpectedEof, &[8u8, 9][..]));
    assert!(e.to_string().contains("5-byte range (3 bytes missing)"), "{e}");
    assert_eq!(r.read_u8().unwrap_err().kind(), ErrorKind::UnexpectedEof);
}

#[test]
fn frames_cut_short_fail_cleanly_in_every_reader() {
    let whole = content::frames(4096, LenRange { min: 100, max: 300 }, 3);
    // Cut inside a payload, and inside the second frame's header.
    let first = u32::from_be_bytes(whole[..4].try_into().unwrap()) as usize;
    for cut in [whole.len() - 1, 4 + first + 2, 2] {
        let data = &whole[..cut];
        for info in buflab::catalog::schema().readers {
            for sizes in [vec![1], vec![0, 7, 0, 64]] {
                let probe = Probe::default();
                let mut sources = Lanes::with_capacity(1);
                sources.push(scripted(data, &sizes, &probe));
                let spec = Spec { workload: Workload::Frames, rs: 1, len: data.len(), reuse: false };
                let mut sink = [DigestSink::default()];
                let config = ReaderConfig { cap: 64, pool: true };
                let err = drive_streams(info.id, sources, &probe, config, &spec, &mut [0], &mut sink).unwrap_err();
                assert_eq!(err.kind(), ErrorKind::UnexpectedEof, "{:?} cut at {cut}", info.id);
            }
        }
    }
}

#[test]
fn pool_off_allocates_a_block_each_time_pool_on_reuses_them() {
    let data = content::frames(64 << 10, LenRange { min: 64, max: 1024 }, 5);
    let run = |pool_on: bool| {
        let probe = Probe::default();
        let mut sources = Lanes::with_capacity(1);
        sources.push(Source::new(&data, ChunkModel::preset("worst").unwrap(), 2, &probe));
        let spec = Spec { workload: Workload::Frames, rs: 1, len: data.len(), reuse: false };
        let mut sink = [DigestSink::default()];
        let config = ReaderConfig { cap: 8192, pool: pool_on };
        drive_streams(ReaderKind::Chained, sources, &probe, config, &spec, &mut [0], &mut sink).unwrap()
    };
    let (on, off) = (run(true), run(false));
    let (on_blocks, off_blocks) = (on.blocks.unwrap(), off.blocks.unwrap());
    assert_eq!(on_blocks.allocated + on_blocks.reused, off_blocks.allocated, "same blocks taken either way");
    assert!(on_blocks.allocated <= 2, "{on_blocks:?}");
    assert!(off_blocks.allocated > 500, "{off_blocks:?}");
    assert_eq!(off_blocks.reused, 0);
    assert_eq!((on.bytes_copied, off.bytes_copied), (0, 0), "read_range copies nothing");
}

#[test]
fn streams_share_one_pool() {
    // Two readers on one pool: a block one has read through serves the other.
    let data: Vec<u8> = (0..64).collect();
    let p = pool(8);
    let mut a = ChainedReader::new(&data[..], &p);
    let mut b = ChainedReader::new(&data[..], &p);
    a.skip(8).unwrap();
    b.skip(8).unwrap();
    assert_eq!(p.counts().blocks, BlockCounts { allocated: 1, reused: 1 });
}

// ---------------------------------------------------------------------------
// Model-based: any sequence of operations gives what a plain cursor over the
// slice gives, for any chunking and block length.

#[derive(Clone, Debug)]
enum Op {
    U8,
    Be(usize),
    Skip(usize),
    Range(usize),
    Peek(usize),
    Line,
    Read(usize),
    FillConsume(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        Just(Op::U8),
        (0usize..6).prop_map(Op::Be),
        (0usize..40).prop_map(Op::Skip),
        (0usize..60).prop_map(Op::Range),
        (0usize..30).prop_map(Op::Peek),
        Just(Op::Line),
        (0usize..50).prop_map(Op::Read),
        (0usize..20).prop_map(Op::FillConsume),
    ]
}

/// What an operation returned, in a form both sides can produce.
#[derive(Debug, PartialEq, Eq)]
enum Got {
    Bytes(Vec<u8>),
    Int(u32),
    Eof,
    Invalid,
}

fn retry<T>(mut f: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    loop {
        match f() {
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

fn apply<R: Read>(r: &mut ChainedReader<'_, R>, op: &Op) -> Got {
    let eof = |e: io::Error| match e.kind() {
        ErrorKind::UnexpectedEof => Got::Eof,
        ErrorKind::InvalidInput => Got::Invalid,
        k => panic!("unexpected error {k:?}"),
    };
    match *op {
        Op::U8 => r.read_u8().map(|b| Got::Bytes(vec![b])).unwrap_or_else(eof),
        Op::Be(w) => r.read_be(w).map(Got::Int).unwrap_or_else(eof),
        Op::Skip(n) => r.skip(n).map(|()| Got::Bytes(vec![])).unwrap_or_else(eof),
        Op::Range(n) => {
            let mut v = Vec::new();
            match r.read_range(n, |s| v.extend_from_slice(s)) {
                Ok(()) => Got::Bytes(v),
                Err(e) => eof(e),
            }
        }
        Op::Peek(n) => r.peek(n).map(|p| Got::Bytes(p.flatten().copied().collect())).unwrap_or_else(eof),
        Op::Line => {
            let mut v = Vec::new();
            r.read_line(|s| v.extend_from_slice(s)).unwrap();
            Got::Bytes(v)
        }
        Op::Read(n) => {
            let mut buf = vec![0u8; n];
            let k = retry(|| r.read(&mut buf)).unwrap();
            Got::Bytes(buf[..k].to_vec())
        }
        Op::FillConsume(n) => {
            let avail = retry(|| r.fill_buf().map(<[u8]>::to_vec)).unwrap();
            let k = n.min(avail.len());
            r.consume(k);
            Got::Bytes(avail[..k].to_vec())
        }
    }
}

/// The model: a cursor over the slice. `Read`, `fill_buf` and `read_line`
/// may legitimately return less than asked (what is buffered), so the model
/// is told how many bytes the reader returned and checks they are the next
/// ones.
fn model(data: &[u8], at: &mut usize, op: &Op, got: &Got) -> Got {
    let rest = &data[*at..];
    let take = |at: &mut usize, n: usize| {
        let v = data[*at..*at + n].to_vec();
        *at += n;
        Got::Bytes(v)
    };
    match *op {
        Op::U8 => if rest.is_empty() { Got::Eof } else { take(at, 1) },
        Op::Be(w) if !(1..=4).contains(&w) => Got::Invalid,
        Op::Be(w) => {
            if rest.len() < w {
                Got::Eof
            } else {
                let v = rest[..w].iter().fold(0u32, |v, &b| v << 8 | u32::from(b));
                *at += w;
                Got::Int(v)
            }
        }
        Op::Skip(n) | Op::Range(n) => {
            if rest.len() < n {
                *at = data.len(); // the bytes before the end were consumed
                Got::Eof
            } else {
                let g = take(at, n);
                if matches!(op, Op::Skip(_)) { Got::Bytes(vec![]) } else { g }
            }
        }
        Op::Peek(n) => if rest.len() < n { Got::Eof } else { Got::Bytes(rest[..n].to_vec()) },
        Op::Line => {
            let n = rest.iter().position(|&b| b == b'\n').map_or(rest.len(), |i| i + 1);
            take(at, n)
        }
        Op::Read(n) | Op::FillConsume(n) => {
            let k = match got {
                Got::Bytes(v) => v.len(),
                _ => 0,
            };
            assert!(k <= n.min(rest.len()));
            // Asked for something, something left: a read returns at least one byte.
            if n > 0 && !rest.is_empty() {
                assert!(k > 0, "{op:?} returned nothing with {} bytes left", rest.len());
            }
            take(at, k)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_operation_sequence_matches_a_cursor_over_the_slice(
        data in prop::collection::vec(prop_oneof![4 => any::<u8>(), 1 => Just(b'\n')], 0..400),
        sizes in prop::collection::vec(prop_oneof![1 => Just(0usize), 2 => Just(1usize), 4 => 1usize..40], 0..12),
        block in 1usize..24,
        pool_on in any::<bool>(),
        ops in prop::collection::vec(op(), 1..60),
    ) {
        let probe = Probe::default();
        let p = BlockPool::new(NonZeroUsize::new(block).unwrap(), pool_on);
        {
            let mut r = ChainedReader::new(scripted(&data, &sizes, &probe), &p);
            let mut at = 0;
            for op in &ops {
                let got = apply(&mut r, op);
                let want = model(&data, &mut at, op, &got);
                prop_assert_eq!(&got, &want, "{:?} at {}", op, at);
                prop_assert!(r.buffered() <= data.len() - at.min(data.len()));
            }
        }
        // Every block came back: none lost, none handed out twice.
        let c = p.counts();
        if pool_on {
            prop_assert_eq!(p.free_blocks() as u64, c.blocks.allocated);
        } else {
            prop_assert_eq!(p.free_blocks(), 0);
        }
    }

    #[test]
    fn chained_copies_are_exactly_the_bytes_its_callers_own(
        len in 0usize..3000,
        sizes in prop::collection::vec(prop_oneof![1 => Just(0usize), 4 => 1usize..300], 0..10),
        block in 1usize..400,
        rs in 1usize..900,
        workload in prop::sample::select(Workload::all()),
    ) {
        // Every byte the application owns either came straight from the
        // source (counted as direct) or was copied out of a block (counted
        // as copied): the reader's own count is complete.
        let data = match workload {
            Workload::Frames => content::frames(if len < 4 { 0 } else { len }, LenRange { min: 0, max: 200 }, 1),
            Workload::Lines => content::lines(len, LenRange { min: 0, max: 80 }, 1),
            Workload::Scan => content::nul_at(len, len as u64 / 2),
            _ => counting_bytes(len),
        };
        let probe = Probe::default();
        let p = BlockPool::new(NonZeroUsize::new(block).unwrap(), true);
        let mut readers = Lanes::with_capacity(1);
        readers.push(ChainedReader::new(scripted(&data, &sizes, &probe), &p));
        let spec = Spec { workload, rs, len: data.len(), reuse: false };
        let mut sink = [DigestSink::default()];
        let mut app = workload::AppCounts::default();
        workload::drive(&spec, readers, &mut vec![0; rs], &mut sink, &mut app).unwrap();
        let c = p.counts();
        prop_assert_eq!(c.bytes_copied + c.bytes_direct, app.owned_bytes);
        prop_assert_eq!(sink[0].value(), content::expected(workload, &data).digest);
    }
}
