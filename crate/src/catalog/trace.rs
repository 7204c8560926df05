//! What the page and the command line say about a program's own reads
//! (`engine::trace`): a descriptor's name, what its reads show about the
//! source, the replay in a sentence and how near the nearest link comes.
//! Every figure in a sentence is read off the report it describes.

use crate::engine::readers::info;
use crate::model::trace::{Descriptor, FitReason, LinkFit, Replay, SkipReason, SourceKind};
use crate::model::{format_size, ChunkModel, Id, RealSource, ReaderKind};

/// `2097152` → `"2,097,152"`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size in words: "1 byte", "1,696 bytes", "8 KiB", "2 MiB".
pub fn size_words(n: u64) -> String {
    const KIB: u64 = 1024;
    match n {
        1 => "1 byte".into(),
        n if n >= KIB * KIB && n % (KIB * KIB) == 0 => format!("{} MiB", grouped(n / (KIB * KIB))),
        n if n >= KIB && n % KIB == 0 => format!("{} KiB", grouped(n / KIB)),
        n => format!("{} bytes", grouped(n)),
    }
}

fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n), if n == 1 { one } else { many })
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn kind_words(kind: SourceKind) -> &'static str {
    match kind {
        SourceKind::File => "a file",
        SourceKind::Pipe => "a pipe",
        SourceKind::Socket => "a socket",
        SourceKind::Device => "a device",
        SourceKind::Other => "a special file",
        SourceKind::Unknown => "unknown",
    }
}

fn real_source_words(source: RealSource) -> &'static str {
    match source {
        RealSource::File => "file",
        RealSource::Pipe => "pipe",
        RealSource::Tcp => "TCP",
    }
}

/// Why a line of a log was skipped, in words.
pub fn skip_reason(reason: SkipReason) -> &'static str {
    match reason {
        SkipReason::NotStrace => "not a line strace prints",
        SkipReason::Truncated => "a call cut off before its result",
        SkipReason::BadArguments => "a read whose descriptor or size could not be read",
        SkipReason::Orphan => "the second half of a split call whose first half never came",
        SkipReason::TooLong => "longer than the longest line kept",
    }
}

/// A descriptor's name: "fd 3 /tmp/f.bin", "fd 0 pipe:[25513] · pid 12",
/// "fd 3 (2nd opening) data.bin", "pipe · std BufReader" for a `buflab
/// real` run. The process is named where the log names processes (`-f`).
pub fn label(d: &Descriptor) -> String {
    if let Some(real) = &d.real {
        return format!("{} · {}", real_source_words(real.source), info(real.reader).label);
    }
    let mut out = format!("fd {}", d.fd);
    if d.opening > 1 {
        out += &format!(" ({} opening)", ordinal(d.opening));
    }
    match (&d.path, d.fd) {
        (Some(path), _) => {
            out.push(' ');
            out += path;
        }
        (None, 0) => out += " (standard input)",
        (None, _) => {}
    }
    if d.pid != 0 {
        out += &format!(" · pid {}", d.pid);
    }
    out
}

/// What a descriptor's reads show about its source, in a sentence or two.
pub fn about_source(d: &Descriptor) -> String {
    if let Some(real) = &d.real {
        let counter = match real.counted_by {
            crate::model::CallCounter::Kernel => "counted by the kernel",
            crate::model::CallCounter::Wrapper => "counted by a wrapper",
        };
        return format!(
            "buflab real's {} run of {}: {} ({counter}) for {}, {}–{} per call; the model counted {} for the same link.",
            real_source_words(real.source),
            info(real.reader).label,
            count(d.calls, "read call", "read calls"),
            size_words(d.bytes),
            size_words(real.bytes_per_read.min),
            size_words(real.bytes_per_read.max),
            grouped(real.model_read_calls),
        );
    }
    let mut out = Vec::new();
    let answered = d.answered();
    if answered == 0 {
        out.push(format!("{} and every one failed.", count(d.calls, "read call", "read calls")));
    } else if d.pieces_shown() == 0 {
        let tail = if d.short_at_end > 0 { " (but the last before the end)" } else { "" };
        out.push(format!(
            "Every read got all it asked for{tail}: the source had the bytes waiting, as a regular file has, or a pipe or socket whose writer stays ahead of the reader."
        ));
    } else {
        let s = &d.short_sizes;
        let most = s.exact.first().filter(|e| e.count > 1).map(|e| format!(" (most often {})", size_words(e.size))).unwrap_or_default();
        let range = if s.min == s.max { size_words(s.min) } else { format!("{}–{}", size_words(s.min), size_words(s.max)) };
        out.push(format!(
            "{} of {} got less than they asked for: the data arrived in pieces of {range}{most}, as from a pipe or socket whose reader waits for its writer.",
            grouped(d.pieces_shown()),
            count(answered, "read", "reads"),
        ));
    }
    if d.kind != SourceKind::Unknown {
        let by = if d.path.is_some() { "its name" } else { "the log" };
        out.push(format!("It is {} ({by} says so).", kind_words(d.kind)));
    }
    if d.eof > 0 {
        out.push(format!("{} found the end (returned 0).", count(d.eof, "read", "reads")));
    }
    for e in &d.errors {
        let what = match e.name.as_str() {
            "EAGAIN" | "EWOULDBLOCK" => "found no data waiting (a non-blocking descriptor)",
            "EINTR" | "ERESTARTSYS" | "ERESTARTNOINTR" | "ERESTART_RESTARTBLOCK" => "were interrupted by a signal",
            "?" => "never returned (the process ended first)",
            _ => "failed",
        };
        out.push(format!("{} {what} ({}).", count(e.count, "call", "calls"), e.name));
    }
    if d.positional > 0 {
        out.push(format!("{} read at an offset of their own (pread): the replay leaves them out.", count(d.positional, "call", "calls")));
    }
    out.join(" ")
}

/// The requests of a replay in words: "2,097,153 reads asking for 1 byte
/// each" or "1,024 reads asking for 16 bytes–64 KiB".
fn requests(d: &Descriptor) -> String {
    let a = &d.asked;
    let reads = count(d.sequence.calls, "read", "reads");
    match a.exact.first() {
        Some(e) if a.exact.len() == 1 && a.other == 0 => format!("{reads} asking for {} each", size_words(e.size)),
        _ if a.calls > 0 => format!("{reads} asking for {}–{}", size_words(a.min), size_words(a.max)),
        _ => reads,
    }
}

/// The replay in a sentence: "fd 3 /tmp/f.bin: 2,097,153 reads asking for
/// 1 byte each would be 257 source reads through an 8 KiB std BufReader
/// (unbuffered: 2,097,153, as in the log)."
pub fn headline(d: &Descriptor, r: &Replay) -> String {
    let name = label(d);
    if d.sequence.calls == 0 {
        return format!("{name}: no read to replay.");
    }
    let unbuffered = r.runs.iter().find(|run| run.reader == ReaderKind::Unbuffered).map_or(0, |run| run.source_reads);
    let as_log = if unbuffered == d.sequence.calls { ", as in the log" } else { "" };
    let partial = if d.sequence.whole() {
        String::new()
    } else {
        format!(" The replay covers the first {} of {} calls (the rest did not fit its bounds).", grouped(d.sequence.calls), grouped(d.sequence.of_calls))
    };
    let Some(buffered) = r.runs.iter().find(|run| run.reader != ReaderKind::Unbuffered) else {
        return format!("{name}: {} are {} source reads unbuffered{as_log}.{partial}", requests(d), grouped(unbuffered));
    };
    format!(
        "{name}: {} would be {} through {} {} {} (unbuffered: {}{as_log}).{partial}",
        requests(d),
        count(buffered.source_reads, "source read", "source reads"),
        a_or_an(&size_words(buffered.cap.unwrap_or(0))),
        size_words(buffered.cap.unwrap_or(0)),
        info(buffered.reader).label,
        grouped(unbuffered),
    )
}

/// The article a number takes when read aloud: "an 8 KiB", "an 18 KiB", "a 16 KiB".
fn a_or_an(words: &str) -> &'static str {
    let b = words.as_bytes();
    let eleven_or_eighteen = (words.starts_with("11") || words.starts_with("18")) && !b.get(2).is_some_and(u8::is_ascii_digit);
    if words.starts_with('8') || eleven_or_eighteen {
        "an"
    } else {
        "a"
    }
}

fn chunk_words(chunk: ChunkModel) -> String {
    match chunk {
        ChunkModel::File => "chunk=file".into(),
        ChunkModel::Pipe => "chunk=pipe".into(),
        ChunkModel::Fixed { size } => format!("chunk={}", format_size(size as u64)),
        ChunkModel::Uniform { min, max } => format!("chunk={}-{}", format_size(min as u64), format_size(max as u64)),
    }
}

fn closeness(ratio: f64) -> String {
    if (ratio - 1.0).abs() < 0.005 {
        "the same within 0.5 %".into()
    } else {
        format!("×{ratio:.2} the replay's")
    }
}

/// How near the nearest link comes, in a sentence.
pub fn fit_about(fit: &LinkFit) -> String {
    let why = match fit.reason {
        FitReason::WholeRequests => "every read got all it asked for",
        FitReason::OneSize => "every short read returned the same size",
        FitReason::PipeSized => "most short reads returned a pipe's 64 KiB",
        FitReason::SizeRange => "the short reads' sizes spread over this range",
    };
    let runs: Vec<String> = fit
        .runs
        .iter()
        .map(|r| format!("{} {} against the replay's {} ({})", info(r.reader).label, grouped(r.link), grouped(r.replay), closeness(r.ratio)))
        .collect();
    let scaled = if (fit.scale - 1.0).abs() > 1e-9 {
        format!(" The link reads {} where the log has {}, so its counts are multiplied by {:.3} before they are compared.", size_words(fit.params.len), size_words((fit.params.len as f64 * fit.scale).round() as u64), fit.scale)
    } else {
        String::new()
    };
    format!(
        "Nearest link: {} ({why}), rs={} (the most common request), cap={}, wl={}: {}.{scaled}",
        chunk_words(fit.params.chunk),
        format_size(fit.params.rs),
        format_size(fit.params.cap),
        fit.params.workload.id(),
        runs.join("; "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_sizes_in_words() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(2_097_152), "2,097,152");
        assert_eq!(size_words(1), "1 byte");
        assert_eq!(size_words(1696), "1,696 bytes");
        assert_eq!(size_words(8192), "8 KiB");
        assert_eq!(size_words(2 << 20), "2 MiB");
        assert_eq!(ordinal(2), "2nd");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(23), "23rd");
        assert_eq!([a_or_an("8 KiB"), a_or_an("16 KiB"), a_or_an("18 KiB"), a_or_an("180 bytes"), a_or_an("1 MiB")], ["an", "a", "an", "a", "a"]);
    }
}
