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

use crate::model::AllocCalls;

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

// ---------------------------------------------------------------------------
// The allocator's system calls

/// Set in the environment of a run traced for its allocator calls: the
/// measured sections then mark where they begin and end ([`marked`]).
pub const MARKS_ENV: &str = "BUFLAB_ALLOC_MARKS";

/// Where a mark points: a path that does not exist, opened so that a trace
/// of `openat` shows the label (`…/begin/LABEL`, `…/end`).
pub const MARK_PREFIX: &str = "/buflab-mark/";

/// The system calls `strace` must trace for [`alloc_calls_between_marks`]:
/// the marks and the allocator's.
pub const TRACED_CALLS: &str = "trace=openat,brk,mmap,munmap,mremap";

fn marking() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os(MARKS_ENV).is_some())
}

/// Runs `f`; when this process runs traced for its allocator calls, marks
/// its start and end in the trace with `label`. A mark is one failing
/// `openat` of a short path, which std opens from a stack buffer: it
/// allocates nothing itself (the paths are made before the first mark).
/// Inside [`count`], a mark's `openat` is not a read and faults nothing
/// once warm.
pub fn marked<R>(label: &str, f: impl FnOnce() -> R) -> R {
    if !marking() {
        return f();
    }
    let begin = format!("{MARK_PREFIX}begin/{label}");
    let end = format!("{MARK_PREFIX}end");
    let _ = std::fs::File::open(&begin);
    let out = f();
    let _ = std::fs::File::open(&end);
    out
}

/// The allocator's calls per marked section in a trace written by
/// `strace -f -e trace=openat,brk,mmap,munmap,mremap` ([`TRACED_CALLS`]),
/// in the order the sections ran: each section counts the calls its own
/// thread made between its begin and end marks (other threads' calls, a
/// pipe's writer for instance, are theirs).
pub fn alloc_calls_between_marks(trace: &str) -> Vec<(String, AllocCalls)> {
    let mut sections: Vec<(String, AllocCalls)> = Vec::new();
    // thread id -> index into sections, while its section runs
    let mut open: Vec<(u64, usize)> = Vec::new();
    let begin = format!("\"{MARK_PREFIX}begin/");
    let end = format!("\"{MARK_PREFIX}end\"");
    for line in trace.lines() {
        // `-f` puts the thread's id first.
        let (tid, call) = match line.split_once(' ') {
            Some((t, rest)) if t.bytes().all(|b| b.is_ascii_digit()) => (t.parse().unwrap_or(0), rest.trim_start()),
            _ => (0, line),
        };
        // A call interrupted by another thread's is split in two lines:
        // count the first (`brk(… <unfinished ...>`), not `<... brk resumed>`.
        let Some((name, args)) = call.split_once('(') else { continue };
        if name == "openat" {
            if let Some(at) = args.find(&begin) {
                let label = args[at + begin.len()..].split('"').next().unwrap_or("").to_string();
                open.retain(|(t, _)| *t != tid);
                open.push((tid, sections.len()));
                sections.push((label, AllocCalls::default()));
            } else if args.contains(&end) {
                open.retain(|(t, _)| *t != tid);
            }
            continue;
        }
        let Some(&(_, i)) = open.iter().find(|(t, _)| *t == tid) else { continue };
        let calls = &mut sections[i].1;
        match name {
            "brk" => calls.brk += 1,
            "mmap" => calls.mmap += 1,
            "munmap" => calls.munmap += 1,
            "mremap" => calls.mremap += 1,
            _ => {}
        }
    }
    sections
}

#[cfg(test)]
mod trace_tests {
    use super::*;

    #[test]
    fn a_sections_calls_are_its_own_threads_between_its_marks() {
        let trace = r#"100 brk(NULL) = 0x5000
100 openat(AT_FDCWD, "/buflab-mark/begin/std/1", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
100 brk(0x26000) = 0x26000
101 mmap(NULL, 8392704, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_STACK, -1, 0) = 0x7f00
100 mmap(NULL, 266240, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f10
100 munmap(0x7f10, 266240 <unfinished ...>
101 brk(NULL) = 0x26000
100 <... munmap resumed>) = 0
100 brk(0x6000) = 0x6000
100 openat(AT_FDCWD, "/buflab-mark/end", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
100 brk(0x27000) = 0x27000
100 openat(AT_FDCWD, "/buflab-mark/begin/unbuffered/1", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
100 openat(AT_FDCWD, "/buflab-mark/end", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
"#;
        assert_eq!(
            alloc_calls_between_marks(trace),
            vec![
                ("std/1".to_string(), AllocCalls { brk: 2, mmap: 1, munmap: 1, mremap: 0 }),
                ("unbuffered/1".to_string(), AllocCalls::default()),
            ]
        );
    }
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
