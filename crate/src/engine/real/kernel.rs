//! The kernel's own counters for the calling thread (Linux): `read(2)`-family
//! system calls (`syscr` in `/proc/thread-self/io`) and minor page faults
//! (`minflt` in `/proc/thread-self/stat`). They count what a program really
//! asked of the kernel, std's overrides on `File` included, which a wrapper
//! around the source cannot see. Elsewhere every reading is `None`: the
//! count is unavailable, never estimated.
//!
//! Reading `io` is itself one `read(2)` of the thread, made after the value
//! is taken: [`Counter::between`] takes that out, as measured once per
//! process (two readings in a row).

use std::sync::OnceLock;

/// A thread's counters at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// `read`, `readv`, `pread64`, … calls so far (`syscr`).
    pub read_calls: u64,
    /// Minor page faults so far (`minflt`).
    pub minor_faults: u64,
}

/// Counts between two readings of the same thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    pub read_calls: u64,
    pub minor_faults: u64,
}

/// The calling thread's counters now; `None` where the kernel does not
/// provide them.
pub fn now() -> Option<Reading> {
    #[cfg(target_os = "linux")]
    {
        // `stat` first: its reads are then in `io`'s count, which the
        // per-process calibration of `between` takes out with the rest.
        let stat = read_small("/proc/thread-self/stat")?;
        let io = read_small("/proc/thread-self/io")?;
        Some(Reading { read_calls: field(&io, "syscr:")?, minor_faults: minflt(&stat)? })
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// One `read(2)` of a small `/proc` file (both fit in 1 KiB), so each
/// reading makes the same number of read calls.
#[cfg(target_os = "linux")]
fn read_small(path: &str) -> Option<String> {
    use std::io::Read;
    let mut buf = [0u8; 1024];
    let n = std::fs::File::open(path).ok()?.read(&mut buf).ok()?;
    String::from_utf8(buf[..n].to_vec()).ok()
}

#[cfg(target_os = "linux")]
fn field(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|l| l.strip_prefix(name)).and_then(|v| v.trim().parse().ok())
}

/// `minflt`, the 10th field of `stat` (the 8th after the command name,
/// which is in parentheses and may hold spaces).
#[cfg(target_os = "linux")]
fn minflt(stat: &str) -> Option<u64> {
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(7)?.parse().ok()
}

/// What one reading costs in the thread's own counters, measured once.
fn overhead() -> Option<Delta> {
    static OVERHEAD: OnceLock<Option<Delta>> = OnceLock::new();
    *OVERHEAD.get_or_init(|| {
        // The first readings fault in the code and buffers they use; the
        // last pair is what a reading costs once warm.
        let _ = now()?;
        let a = now()?;
        let b = now()?;
        Some(Delta { read_calls: b.read_calls - a.read_calls, minor_faults: b.minor_faults.saturating_sub(a.minor_faults) })
    })
}

/// The counts of what the thread did between `before` and `after` (both
/// readings of the calling thread), without the readings' own.
pub fn between(before: Reading, after: Reading) -> Delta {
    let own = overhead().unwrap_or_default();
    Delta {
        read_calls: (after.read_calls - before.read_calls).saturating_sub(own.read_calls),
        minor_faults: (after.minor_faults - before.minor_faults).saturating_sub(own.minor_faults),
    }
}

/// Runs `f` and returns what it did in the calling thread's counters.
pub fn count<R>(f: impl FnOnce() -> R) -> (R, Option<Delta>) {
    let _ = overhead();
    let before = now();
    let out = f();
    let after = now();
    (out, before.zip(after).map(|(b, a)| between(b, a)))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn the_counter_sees_each_read_call_of_the_thread_and_nothing_else() {
        let path = std::env::temp_dir().join(format!("buflab-kernel-{}", std::process::id()));
        std::fs::write(&path, vec![7u8; 10_000]).unwrap();
        let mut file = std::fs::File::open(&path).unwrap();
        let mut buf = [0u8; 1000];
        let (_, d) = count(|| {
            for _ in 0..5 {
                file.read_exact(&mut buf).unwrap();
            }
        });
        assert_eq!(d.unwrap().read_calls, 5);
        let (_, d) = count(|| ());
        assert_eq!(d.unwrap().read_calls, 0);
        // std's File reads the rest in one call, then one call finds the end.
        let (_, d) = count(|| file.read_to_end(&mut Vec::new()).unwrap());
        assert_eq!(d.unwrap().read_calls, 2);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn touching_fresh_pages_is_counted_as_minor_faults() {
        let (_, d) = count(|| {
            // 8 MiB from the allocator is mapped fresh (above glibc's mmap
            // threshold); writing it faults each page in.
            let mut v = vec![0u8; 8 << 20];
            for i in (0..v.len()).step_by(4096) {
                v[i] = 1;
            }
            std::hint::black_box(&v);
        });
        assert!(d.unwrap().minor_faults >= 1000, "{d:?}");
    }
}
