//! A zero-copy reader over a chain of pooled, fixed-length blocks: seed 002's
//! design (Monibuca's `BufReader`), in Rust terms.
//!
//! Mental model: the source writes straight into the free end of the last
//! block of a chain. The application reads by *borrowing*: [`ChainedReader::read_range`]
//! and [`ChainedReader::read_line`] call a closure with slices of the blocks
//! themselves, so no byte is copied between buffers. A block read to its end
//! leaves the chain at once and goes back to a [`BlockPool`] (seed 002's
//! `recycleFront`), so a reader with nothing buffered holds no memory, and
//! several readers (streams) sharing one pool pass blocks between them. With
//! the pool off, every block taken is a fresh allocation and every block
//! given back is freed: the pool's saving shows in the allocation counts.
//!
//! The reader also implements [`Read`] and [`BufRead`], so any code written
//! for std's readers can drive it; `read` copies (and counts what it copies),
//! `fill_buf` lends the front block.
//!
//! # Slices cannot outlive the call
//!
//! Seed 002 warns that a slice handed to the callback must not be kept,
//! because its block is recycled afterwards. Here the borrow checker enforces
//! it: the callback takes `&[u8]` for any lifetime the reader chooses, so a
//! slice cannot be stored anywhere that outlives the call:
//!
//! ```compile_fail,E0521
//! use buflab::engine::readers::chained::{BlockPool, ChainedReader};
//! use std::num::NonZeroUsize;
//! let pool = BlockPool::new(NonZeroUsize::new(8).unwrap(), true);
//! let mut reader = ChainedReader::new(&b"hello world"[..], &pool);
//! let mut kept: &[u8] = &[];
//! reader.read_range(5, |chunk| kept = chunk).unwrap(); // error: borrowed data escapes the closure
//! println!("{kept:?}");
//! ```
//!
//! To keep bytes, copy them, which is then plain to see in the code:
//!
//! ```
//! use buflab::engine::readers::chained::{BlockPool, ChainedReader};
//! use std::num::NonZeroUsize;
//! let pool = BlockPool::new(NonZeroUsize::new(8).unwrap(), true);
//! let mut reader = ChainedReader::new(&b"hello world"[..], &pool);
//! let mut kept = Vec::new();
//! reader.read_range(5, |chunk| kept.extend_from_slice(chunk)).unwrap();
//! assert_eq!(kept, b"hello");
//! ```
//!
//! # Zero capacity
//!
//! A block length of 0 is rejected by the type: [`BlockPool::new`] takes a
//! [`NonZeroUsize`]. (The `cap` link key has a minimum of 1 and
//! `Params::check` refuses 0 with a message.)

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::io::{self, BufRead, ErrorKind, Read};
use std::num::NonZeroUsize;

use super::{Look, OwnCounts, ReaderConfig, ReaderInfo, SnippetPart, Strategy};
use crate::engine::source::{copy, ObservedRead};
use crate::engine::workload::{self, AppReader, Consume, FrameBuf, Tally};
use crate::model::{key, BlockCounts, Params, ReaderKind, Shape, Workload};

/// Fixed-length blocks for [`ChainedReader`]s, kept for reuse when enabled.
///
/// Shared by reference (`&BlockPool`) between any number of readers on one
/// thread; the free list is a `RefCell` borrowed only inside `take`/`give`.
#[derive(Debug)]
pub struct BlockPool {
    block_len: NonZeroUsize,
    enabled: bool,
    /// Blocks given back and not yet handed out again; each is `block_len`
    /// bytes. Always empty when the pool is disabled.
    free: RefCell<Vec<Box<[u8]>>>,
    allocated: Cell<u64>,
    reused: Cell<u64>,
    copied: Cell<u64>,
    direct: Cell<u64>,
}

impl BlockPool {
    /// A pool of `block_len`-byte blocks. With `enabled` false it keeps
    /// nothing: `take` always allocates and `give` frees.
    pub fn new(block_len: NonZeroUsize, enabled: bool) -> BlockPool {
        BlockPool {
            block_len,
            enabled,
            free: RefCell::new(Vec::new()),
            allocated: Cell::new(0),
            reused: Cell::new(0),
            copied: Cell::new(0),
            direct: Cell::new(0),
        }
    }

    pub fn block_len(&self) -> usize {
        self.block_len.get()
    }

    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// Blocks waiting in the pool.
    pub fn free_blocks(&self) -> usize {
        self.free.borrow().len()
    }

    pub fn counts(&self) -> OwnCounts {
        OwnCounts {
            blocks: BlockCounts { allocated: self.allocated.get(), reused: self.reused.get() },
            bytes_copied: self.copied.get(),
            bytes_direct: self.direct.get(),
        }
    }

    fn take(&self) -> Box<[u8]> {
        if let Some(block) = self.free.borrow_mut().pop() {
            self.reused.set(self.reused.get() + 1);
            return block;
        }
        self.allocated.set(self.allocated.get() + 1);
        vec![0u8; self.block_len.get()].into_boxed_slice()
    }

    fn give(&self, block: Box<[u8]>) {
        debug_assert_eq!(block.len(), self.block_len.get());
        if self.enabled {
            self.free.borrow_mut().push(block);
        }
    }

    fn add(cell: &Cell<u64>, n: usize) {
        cell.set(cell.get() + n as u64);
    }
}

/// One block of the chain: `data[start..end]` is unread, `data[end..]` is
/// free for the source.
#[derive(Debug)]
struct Block {
    data: Box<[u8]>,
    /// `start <= end`.
    start: usize,
    /// `end <= data.len()`.
    end: usize,
}

impl Block {
    fn unread(&self) -> &[u8] {
        &self.data[self.start..self.end]
    }

    fn is_full(&self) -> bool {
        self.end == self.data.len()
    }
}

/// Reads a source through a chain of pooled blocks; see the module docs.
#[derive(Debug)]
pub struct ChainedReader<'p, R> {
    inner: R,
    pool: &'p BlockPool,
    /// Blocks in stream order. Invariants, kept by `fill_once` and `advance`:
    /// - every block holds unread bytes (`start < end`): a block read to its
    ///   end leaves at once, back to the pool, and so does a fresh block the
    ///   source put nothing into; the chain is empty exactly when nothing is
    ///   buffered;
    /// - only the last block (the tail) receives bytes from the source, and a
    ///   new block is added only when the tail is full, so every block but the
    ///   tail is full;
    /// - `buffered` is the sum of the blocks' unread lengths.
    chain: VecDeque<Block>,
    buffered: usize,
}

/// The error for a stream that ends inside an `n`-byte `what` with
/// `missing` bytes still to come. Built only when it happens: an eager
/// `format!` would be an allocation per call.
fn eof_inside(n: usize, what: &str, missing: usize) -> io::Error {
    io::Error::new(
        ErrorKind::UnexpectedEof,
        format!(
            "the stream ended inside a {n}-byte {what} ({missing} byte{} missing)",
            if missing == 1 { "" } else { "s" }
        ),
    )
}

impl<'p, R: Read> ChainedReader<'p, R> {
    /// A reader over `inner` taking its blocks from `pool`. No block is taken
    /// until the first read.
    pub fn new(inner: R, pool: &'p BlockPool) -> Self {
        // Two slots: the front block being read and the tail being filled,
        // the most any operation but a long `peek` needs.
        ChainedReader { inner, pool, chain: VecDeque::with_capacity(2), buffered: 0 }
    }

    /// Bytes read from the source and not yet consumed.
    pub fn buffered(&self) -> usize {
        self.buffered
    }

    /// Blocks the chain holds now.
    pub fn blocks(&self) -> usize {
        self.chain.len()
    }

    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The chain as the buffer timeline draws it, front block first: each
    /// block's address (its identity: a pooled block comes back with the same
    /// one) and its unread range `start..end` of `block_len` bytes. Only
    /// looks; the timeline calls it between operations, never on the read path.
    pub fn spans(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        self.chain.iter().map(|b| (b.data.as_ptr() as usize, b.start, b.end))
    }

    /// One read call on the source, into the tail's free space (a new block
    /// when there is no tail or it is full). Returns the bytes read; 0 is
    /// what the source returned (end of stream, or a zero-length read).
    /// Errors, `Interrupted` included, pass through, as std's `fill_buf`'s do.
    fn fill_once(&mut self) -> io::Result<usize> {
        if self.chain.back().is_none_or(Block::is_full) {
            self.chain.push_back(Block { data: self.pool.take(), start: 0, end: 0 });
        }
        let tail = self.chain.back_mut().expect("a tail was just ensured");
        let result = self.inner.read(&mut tail.data[tail.end..]);
        let n = *result.as_ref().unwrap_or(&0);
        tail.end += n;
        self.buffered += n;
        if tail.start == tail.end {
            // A fresh block the source put nothing into goes straight back.
            let empty = self.chain.pop_back().expect("the tail exists");
            self.pool.give(empty.data);
        }
        result
    }

    /// Fills until at least `n` bytes are buffered; `what` names the read for
    /// the error at an early end of stream. Retries interrupted reads.
    fn fill_to(&mut self, n: usize, what: &str) -> io::Result<()> {
        while self.buffered < n {
            match self.fill_once() {
                Ok(0) => return Err(eof_inside(n, what, n - self.buffered)),
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Consumes `n` bytes of the front block (`n` at most its unread length)
    /// and gives the block back to the pool if that empties it.
    fn advance(&mut self, n: usize) {
        let front = self.chain.front_mut().expect("advance needs buffered bytes");
        debug_assert!(n <= front.end - front.start);
        front.start += n;
        self.buffered -= n;
        if front.start == front.end {
            let done = self.chain.pop_front().expect("checked non-empty");
            self.pool.give(done.data);
        }
    }

    /// Hands the next `n` bytes to `f` as slices of the blocks, without
    /// copying; `f` may be called several times (once per block and per
    /// source read the range spans) and never with an empty slice. Blocks are
    /// recycled as they are read through, so a range of any length needs at
    /// most two blocks. Fails with `UnexpectedEof` if the stream ends first
    /// (the bytes before the end have been handed to `f`).
    pub fn read_range(&mut self, mut n: usize, mut f: impl FnMut(&[u8])) -> io::Result<()> {
        let total = n;
        while n > 0 {
            if self.buffered == 0 {
                match self.fill_once() {
                    Ok(0) => return Err(eof_inside(total, "range", n)),
                    Ok(_) => {}
                    Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            }
            let front = self.chain.front().expect("buffered > 0");
            let k = (front.end - front.start).min(n);
            f(&front.unread()[..k]);
            n -= k;
            self.advance(k);
        }
        Ok(())
    }

    /// Skips `n` bytes without looking at them.
    pub fn skip(&mut self, n: usize) -> io::Result<()> {
        self.read_range(n, |_| {})
    }

    /// The next byte.
    pub fn read_u8(&mut self) -> io::Result<u8> {
        self.fill_to(1, "read")?;
        let b = self.chain.front().expect("buffered > 0").unread()[0];
        self.advance(1);
        Ok(b)
    }

    /// A big-endian unsigned integer of `width` bytes (1 to 4), possibly
    /// spanning blocks. Other widths fail with `InvalidInput`; an early end
    /// of stream fails with `UnexpectedEof` and consumes nothing.
    pub fn read_be(&mut self, width: usize) -> io::Result<u32> {
        if !(1..=4).contains(&width) {
            return Err(io::Error::new(
                ErrorKind::InvalidInput,
                format!("read_be reads 1 to 4 bytes, not {width}"),
            ));
        }
        self.fill_to(width, "integer")?;
        let mut value = 0u32;
        for _ in 0..width {
            let b = self.chain.front().expect("filled").unread()[0];
            self.advance(1);
            value = value << 8 | u32::from(b);
        }
        Ok(value)
    }

    /// The next `n` bytes, without consuming them, as slices of the blocks
    /// (filling from the source until they are buffered; the chain grows as
    /// needed). The borrow ends before the next read.
    pub fn peek(&mut self, n: usize) -> io::Result<Peek<'_>> {
        self.fill_to(n, "peek")?;
        Ok(Peek { blocks: self.chain.iter(), left: n })
    }

    /// Hands the next line, through its `\n` or to the end of the stream, to
    /// `f` as slices of the blocks (several when the line spans blocks or
    /// source reads), without copying. Returns the line's length; 0 means the
    /// stream has ended. Interrupted reads are retried.
    ///
    /// This inherent method takes precedence over [`BufRead::read_line`]
    /// (which appends to a `String`, copying); call that one as
    /// `BufRead::read_line(&mut reader, &mut text)`.
    pub fn read_line(&mut self, mut f: impl FnMut(&[u8])) -> io::Result<usize> {
        let mut total = 0;
        loop {
            if self.buffered == 0 {
                match self.fill_once() {
                    Ok(0) => return Ok(total),
                    Ok(_) => {}
                    Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            }
            let unread = self.chain.front().expect("buffered > 0").unread();
            let (k, found) = match memchr::memchr(b'\n', unread) {
                Some(i) => (i + 1, true),
                None => (unread.len(), false),
            };
            f(&unread[..k]);
            total += k;
            self.advance(k);
            if found {
                return Ok(total);
            }
        }
    }

    /// Copies buffered bytes into `buf` (as many as fit), counting them.
    fn copy_out(&mut self, buf: &mut [u8]) -> usize {
        // The common case first: the front block holds more than `buf`
        // asks for, so nothing leaves the chain (std's `BufReader::read`
        // has the same fast path). It moves `start` itself: `advance` checks
        // for an emptied block, which a 1-byte read pays for in WebAssembly.
        if let Some(front) = self.chain.front_mut() {
            let (n, unread) = (buf.len(), front.unread());
            if n < unread.len() {
                copy(buf, &unread[..n]);
                front.start += n;
                self.buffered -= n;
                BlockPool::add(&self.pool.copied, n);
                return n;
            }
        }
        let mut done = 0;
        while done < buf.len() && self.buffered > 0 {
            let unread = self.chain.front().expect("buffered > 0").unread();
            let k = unread.len().min(buf.len() - done);
            copy(&mut buf[done..done + k], &unread[..k]);
            done += k;
            self.advance(k);
        }
        BlockPool::add(&self.pool.copied, done);
        done
    }
}

impl<R> Drop for ChainedReader<'_, R> {
    /// Gives the chain's blocks back to the pool (seed 002's `Recycle`).
    fn drop(&mut self) {
        for block in self.chain.drain(..) {
            self.pool.give(block.data);
        }
    }
}

/// The slices [`ChainedReader::peek`] looks at.
#[derive(Debug)]
pub struct Peek<'a> {
    blocks: std::collections::vec_deque::Iter<'a, Block>,
    /// Bytes still to hand out.
    left: usize,
}

impl<'a> Iterator for Peek<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        if self.left == 0 {
            return None;
        }
        // Every block in the chain holds unread bytes, so no slice is empty.
        let unread = self.blocks.next()?.unread();
        let k = unread.len().min(self.left);
        self.left -= k;
        Some(&unread[..k])
    }
}

impl<R: Read> Read for ChainedReader<'_, R> {
    /// Copies buffered bytes (from every block, up to `buf`'s length). With
    /// nothing buffered it makes one source read first, or, when `buf` is at
    /// least a block long, lets the source write straight into `buf`, as
    /// std's `BufReader` does. A source read that returns 0 is passed on as
    /// 0 and not remembered: the next call asks the source again.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.buffered == 0 {
            if buf.len() >= self.pool.block_len() {
                let n = self.inner.read(buf)?;
                BlockPool::add(&self.pool.direct, n);
                return Ok(n);
            }
            if self.fill_once()? == 0 {
                return Ok(0);
            }
        }
        Ok(self.copy_out(buf))
    }

    /// The buffered bytes first (copied), then the rest straight from the
    /// source into `buf`, as std's `BufReader` does.
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let mut copied = 0;
        while self.buffered > 0 {
            let unread = self.chain.front().expect("buffered > 0").unread();
            let k = unread.len();
            buf.extend_from_slice(unread);
            copied += k;
            self.advance(k);
        }
        BlockPool::add(&self.pool.copied, copied);
        let direct = self.inner.read_to_end(buf)?;
        BlockPool::add(&self.pool.direct, direct);
        Ok(copied + direct)
    }
}

impl<R: Read> BufRead for ChainedReader<'_, R> {
    /// The front block's unread bytes, after one source read if nothing is
    /// buffered. Lends; copies nothing.
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.buffered == 0 {
            self.fill_once()?;
        }
        Ok(self.chain.front().map_or(&[][..], Block::unread))
    }

    /// Consumes up to `amt` bytes of what `fill_buf` returned (more is
    /// clamped to it, as std clamps).
    fn consume(&mut self, amt: usize) {
        let available = self.chain.front().map_or(0, |b| b.end - b.start);
        let amt = amt.min(available);
        if amt > 0 {
            self.advance(amt);
        }
    }

    /// Like std's, but counts what it copies into `buf`.
    fn read_until(&mut self, delim: u8, buf: &mut Vec<u8>) -> io::Result<usize> {
        let mut total = 0;
        loop {
            if self.buffered == 0 {
                match self.fill_once() {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                    Err(e) => {
                        BlockPool::add(&self.pool.copied, total);
                        return Err(e);
                    }
                }
            }
            let unread = self.chain.front().expect("buffered > 0").unread();
            let (k, found) = match memchr::memchr(delim, unread) {
                Some(i) => (i + 1, true),
                None => (unread.len(), false),
            };
            buf.extend_from_slice(&unread[..k]);
            total += k;
            self.advance(k);
            if found {
                break;
            }
        }
        BlockPool::add(&self.pool.copied, total);
        Ok(total)
    }
}

// ---------------------------------------------------------------------------
// The reader as a strategy of the engine

pub struct Chained;

impl Strategy for Chained {
    const INFO: ReaderInfo = ReaderInfo {
        id: ReaderKind::Chained,
        label: "chained zero-copy",
        about: "Our own reader after the Monibuca article: the source fills a chain of blocks of the buffer \
                capacity, and the application borrows slices of them (read_range, read_line) \
                instead of copying; blocks read through go back to a pool for reuse.",
        keys: &[key::CAP, key::POOL],
        shape: Shape::Blocks,
    };
    const SNIPPET: SnippetPart = SnippetPart { imports: &[], buffered: true, described_only: true, uses_cap: true };

    /// One pool for all the streams: a block one stream has read through can
    /// serve another.
    type Shared = BlockPool;
    type Reader<'s, S: ObservedRead + 's> = ChainedReader<'s, S>;

    fn shared(config: ReaderConfig) -> io::Result<BlockPool> {
        let block_len = NonZeroUsize::new(config.cap).ok_or_else(|| {
            io::Error::new(ErrorKind::InvalidInput, "the chained reader needs blocks of at least 1 byte")
        })?;
        Ok(BlockPool::new(block_len, config.pool))
    }

    fn build<'s, S: ObservedRead + 's>(pool: &'s BlockPool, _: ReaderConfig, source: S) -> ChainedReader<'s, S> {
        ChainedReader::new(source, pool)
    }

    fn counted(pool: &BlockPool) -> Option<OwnCounts> {
        Some(pool.counts())
    }

    fn look<'r, S: ObservedRead>(reader: &'r ChainedReader<'_, S>) -> Look<'r> {
        Look::Blocks(reader.spans().collect())
    }

    fn snippet_main(p: &Params, _call: &str) -> String {
        let how = match p.workload {
            Workload::Fixed | Workload::Exact => "its Read impl, which copies out of its blocks: app(&mut reader)?",
            Workload::Bytes => "its Read impl, one copied byte per call: app(&mut reader)?",
            Workload::ToEnd => "its Read impl: app(&mut reader)?",
            Workload::Lines => {
                "read_line, which lends each line as slices of its blocks (no copy):\n    \
                 //   while reader.read_line(|piece| { /* borrowed &[u8] */ })? > 0 {}"
            }
            Workload::Frames => {
                "read_be(4) for the header and read_range(len, |piece| ..), which lends the payload\n    \
                 //   as slices of its blocks: no Vec per frame, no copy"
            }
            Workload::Scan => "fill_buf and consume, scanning its blocks in place (no copy)",
        };
        format!(
            "    // chained zero-copy: BufLab's own ChainedReader (crate/src/engine/readers/chained.rs), not a
    // std type, so only described here. Blocks of CAP bytes, from a pool (`pool={}`):
    //   let pool = BlockPool::new(NonZeroUsize::new(CAP).unwrap(), {});
    //   let mut reader = ChainedReader::new(open()?, &pool);
    // It serves this workload with {how}
",
            if p.pool { "on" } else { "off" },
            p.pool
        )
    }
}

/// The chained reader's zero-copy operations wherever it has one.
impl<R: Read> AppReader for ChainedReader<'_, R> {
    fn line<C: Consume, T: Tally>(&mut self, _line: &mut Vec<u8>, sink: &mut C, t: &mut T) -> io::Result<usize> {
        t.call();
        let n = self.read_line(|piece| sink.take(piece))?;
        t.got(n);
        Ok(n)
    }

    fn frame_header<T: Tally>(&mut self, t: &mut T) -> io::Result<Option<u32>> {
        if !workload::has_more(self, t)? {
            return Ok(None);
        }
        t.call();
        let n = self.read_be(4)?;
        t.got(4);
        Ok(Some(n))
    }

    fn frame_payload<C: Consume, T: Tally>(
        &mut self,
        n: usize,
        _frame: &mut FrameBuf,
        sink: &mut C,
        t: &mut T,
    ) -> io::Result<()> {
        t.call();
        self.read_range(n, |piece| sink.take(piece))?;
        t.got(n);
        Ok(())
    }

    fn scan_step<C: Consume, T: Tally>(&mut self, _buf: &mut [u8], sink: &mut C, t: &mut T) -> io::Result<bool> {
        workload::scan_in_place(self, sink, t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(len: usize) -> BlockPool {
        BlockPool::new(NonZeroUsize::new(len).unwrap(), true)
    }

    #[test]
    fn a_drained_reader_holds_no_block_and_the_pool_hands_it_out_again() {
        let p = pool(4);
        let mut r = ChainedReader::new(&[1u8, 2, 3, 4, 5, 6][..], &p);
        assert_eq!(r.read_u8().unwrap(), 1);
        r.skip(3).unwrap();
        assert_eq!((r.blocks(), r.buffered(), p.free_blocks()), (0, 0, 1), "drained: the block is in the pool");
        assert_eq!(r.read_u8().unwrap(), 5);
        assert_eq!(p.counts().blocks, BlockCounts { allocated: 1, reused: 1 });
        assert_eq!(r.read_u8().unwrap(), 6);
        assert_eq!(r.read_u8().unwrap_err().kind(), ErrorKind::UnexpectedEof);
        assert_eq!(r.blocks(), 0, "a block the source put nothing into goes back");
    }

    #[test]
    fn without_the_pool_every_block_is_a_new_one() {
        let p = BlockPool::new(NonZeroUsize::new(4).unwrap(), false);
        let mut r = ChainedReader::new(&[1u8, 2, 3, 4, 5, 6][..], &p);
        r.skip(4).unwrap();
        r.skip(2).unwrap();
        assert_eq!(p.counts().blocks, BlockCounts { allocated: 2, reused: 0 });
        assert_eq!(p.free_blocks(), 0);
    }

    #[test]
    fn read_be_rejects_other_widths() {
        let p = pool(4);
        let mut r = ChainedReader::new(&[0u8; 8][..], &p);
        for width in [0, 5, 8] {
            assert_eq!(r.read_be(width).unwrap_err().kind(), ErrorKind::InvalidInput);
        }
        assert_eq!(r.read_be(2).unwrap(), 0);
    }

    #[test]
    fn blocks_go_back_to_the_pool_and_come_out_again() {
        let p = pool(2);
        let data: Vec<u8> = (0..20).collect();
        let mut r = ChainedReader::new(&data[..], &p);
        let mut seen = Vec::new();
        r.read_range(3, |s| seen.extend_from_slice(s)).unwrap();
        r.peek(3).unwrap().for_each(|s| seen.extend_from_slice(s));
        r.skip(3).unwrap();
        assert_eq!(seen, [0, 1, 2, 3, 4, 5]);
        drop(r);
        let c = p.counts();
        assert!(c.blocks.reused > 0, "{c:?}");
        assert_eq!(p.free_blocks() as u64, c.blocks.allocated, "every block came back");
    }
}
