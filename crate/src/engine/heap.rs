//! Heap accounting: the counting allocator every run's allocation counts
//! come from, and the harness's own work kept out of them ([`uncounted`],
//! [`Lanes`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use crate::model::AllocCounts;

/// Wraps the system allocator and counts per thread. Thread-local counters
/// keep parallel tests from seeing each other's allocations; `Cell<u64>` has no
/// destructor, so the thread-local never allocates itself.
pub struct CountingAlloc;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static FREES: Cell<u64> = const { Cell::new(0) };
    static ALLOC_BYTES: Cell<u64> = const { Cell::new(0) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
    static REALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn bump(cell: &'static std::thread::LocalKey<Cell<u64>>, by: u64) {
    // `try_with`: during thread teardown the slot may be gone; drop the count.
    let _ = cell.try_with(|c| c.set(c.get() + by));
}

fn live_add(delta: i64) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| {
            if now > peak.get() {
                peak.set(now)
            }
        });
    });
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged; the bookkeeping touches only thread-local cells and never
// allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump(&ALLOCATIONS, 1);
        bump(&ALLOC_BYTES, layout.size() as u64);
        live_add(layout.size() as i64);
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump(&ALLOCATIONS, 1);
        bump(&ALLOC_BYTES, layout.size() as u64);
        live_add(layout.size() as i64);
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        bump(&FREES, 1);
        live_add(-(layout.size() as i64));
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump(&REALLOCS, 1);
        if new_size > layout.size() {
            bump(&ALLOCATIONS, 1);
            bump(&ALLOC_BYTES, (new_size - layout.size()) as u64);
        }
        live_add(new_size as i64 - layout.size() as i64);
        System.realloc(ptr, layout, new_size)
    }
}

/// Counts this thread's heap activity from `start` until `finish`.
#[derive(Debug)]
pub struct AllocScope {
    start: AllocCounts,
    live_at_start: i64,
}

impl AllocScope {
    pub fn start() -> AllocScope {
        let live = LIVE.with(Cell::get);
        PEAK.with(|p| p.set(live));
        AllocScope { start: snapshot(), live_at_start: live }
    }

    pub fn finish(self) -> AllocCounts {
        let now = snapshot();
        AllocCounts {
            allocations: now.allocations - self.start.allocations,
            frees: now.frees - self.start.frees,
            alloc_bytes: now.alloc_bytes - self.start.alloc_bytes,
            peak_bytes: (PEAK.with(Cell::get) - self.live_at_start).max(0) as u64,
            reallocs: now.reallocs - self.start.reallocs,
        }
    }
}

fn snapshot() -> AllocCounts {
    AllocCounts {
        allocations: ALLOCATIONS.with(Cell::get),
        frees: FREES.with(Cell::get),
        alloc_bytes: ALLOC_BYTES.with(Cell::get),
        peak_bytes: 0,
        reallocs: REALLOCS.with(Cell::get),
    }
}

/// Runs `f` without charging its heap activity to this thread's counters:
/// for the harness's own bookkeeping (the vector that holds one reader per
/// stream), which no reader would have in a real program. Every counter is
/// restored afterwards, so what `f` allocates must also be freed inside an
/// `uncounted` call, or the live-bytes figure drifts ([`Lanes`] does both).
pub fn uncounted<T>(f: impl FnOnce() -> T) -> T {
    let saved = (
        ALLOCATIONS.with(Cell::get),
        FREES.with(Cell::get),
        ALLOC_BYTES.with(Cell::get),
        LIVE.with(Cell::get),
        PEAK.with(Cell::get),
        REALLOCS.with(Cell::get),
    );
    let out = f();
    ALLOCATIONS.with(|c| c.set(saved.0));
    FREES.with(|c| c.set(saved.1));
    ALLOC_BYTES.with(|c| c.set(saved.2));
    LIVE.with(|c| c.set(saved.3));
    PEAK.with(|c| c.set(saved.4));
    REALLOCS.with(|c| c.set(saved.5));
    out
}

/// One element per stream, in stream order. The vector's own storage is
/// harness overhead and is allocated and freed [`uncounted`]; the elements
/// (readers, their buffers) are built, used and dropped in the open, so
/// their allocations count. The capacity is fixed at creation: pushing past
/// it would reallocate while counted, so it panics instead.
#[derive(Debug)]
pub struct Lanes<T> {
    items: Vec<T>,
}

impl<T> Lanes<T> {
    pub fn with_capacity(n: usize) -> Lanes<T> {
        Lanes { items: uncounted(|| Vec::with_capacity(n)) }
    }

    pub fn push(&mut self, item: T) {
        assert!(self.items.len() < self.items.capacity(), "Lanes are sized once, up front");
        self.items.push(item);
    }

    /// Takes the last element out (nothing is reallocated).
    pub fn pop(&mut self) -> Option<T> {
        self.items.pop()
    }

    /// The same lanes, each element turned into another (a reader into its
    /// `Bytes` iterator, a source into a reader).
    pub fn map<U>(mut self, mut f: impl FnMut(T) -> U) -> Lanes<U> {
        let mut out = Lanes::with_capacity(self.items.len());
        for item in self.items.drain(..) {
            out.push(f(item));
        }
        out
    }
}

impl<T> std::ops::Deref for Lanes<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<T> std::ops::DerefMut for Lanes<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items
    }
}

impl<T> Drop for Lanes<T> {
    fn drop(&mut self) {
        // Elements first, counted (a reader's buffer is freed here)...
        self.items.clear();
        // ...then the vector's own storage, as uncounted as its allocation.
        let storage = std::mem::take(&mut self.items);
        uncounted(move || drop(storage));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uncounted_work_leaves_every_counter_alone() {
        let scope = AllocScope::start();
        uncounted(|| {
            let mut v: Vec<u8> = Vec::with_capacity(1);
            v.reserve(4096); // a realloc
            drop(std::hint::black_box(v));
        });
        assert_eq!(scope.finish(), AllocCounts::default());
    }

    #[test]
    fn alloc_scope_counts_this_threads_allocations() {
        let scope = AllocScope::start();
        let v: Vec<u8> = Vec::with_capacity(1000);
        drop(std::hint::black_box(v));
        let c = scope.finish();
        assert_eq!(c.allocations, 1);
        assert_eq!(c.frees, 1);
        assert_eq!(c.alloc_bytes, 1000);
        assert_eq!(c.peak_bytes, 1000);
        assert_eq!(c.reallocs, 0);
    }

    #[test]
    fn alloc_scope_counts_reallocations_separately() {
        let scope = AllocScope::start();
        let mut v: Vec<u8> = Vec::with_capacity(16);
        v.extend_from_slice(&[7; 16]);
        v.reserve_exact(4096); // grows the block: a realloc
        v.shrink_to(32); // shrinks it: another realloc
        drop(std::hint::black_box(v));
        let c = scope.finish();
        assert_eq!(c.reallocs, 2);
        assert_eq!(c.allocations, 2, "the first alloc and the growing realloc");
        assert_eq!(c.frees, 1);
    }

    #[test]
    fn uncounted_and_lanes_hide_only_the_harness() {
        let scope = AllocScope::start();
        let mut lanes: Lanes<Vec<u8>> = Lanes::with_capacity(3);
        for n in [10, 20, 30] {
            lanes.push(Vec::with_capacity(n));
        }
        let lanes = lanes.map(|v| std::hint::black_box(v));
        drop(lanes);
        let c = scope.finish();
        assert_eq!((c.allocations, c.frees, c.alloc_bytes, c.peak_bytes), (3, 3, 60, 60));
        let before = AllocScope::start();
        let v: Vec<u64> = uncounted(|| Vec::with_capacity(100));
        uncounted(move || drop(v));
        assert_eq!(before.finish(), AllocCounts::default());
    }
}
