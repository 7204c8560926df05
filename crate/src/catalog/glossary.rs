//! The glossary: what the words the page uses mean, one entry per term. The
//! page's Glossary (the masthead's button, and every term the headline, the
//! lesson card and the charts' titles link to it) shows these entries, as
//! generated data (`web/src/engine/glossary.gen.json`); nothing on the page
//! defines a term again.
//!
//! An entry that names a metric opens with that metric's own sentence
//! ([`super::metrics::METRICS`]'s `about`, the table heading's tooltip), so
//! the two never disagree; figures (chunk ranges, the knee's tolerance, the
//! pipe's size) are read from the constants that decide them. The
//! definitions follow the design's (../shared/DESIGN.md, "Definitions").

use serde::Serialize;

use super::metrics::{MetricId, METRICS};
use super::settings;
use super::terms::TermId;
use crate::engine::clock::OUTLIER_FENCE;
use crate::engine::experiment;
use crate::engine::source::KERNEL_BUFFER;
use crate::engine::sweep::KNEE_TOLERANCE;
use crate::model::{key, Lab, Params, ReaderKind, PIPE_CHUNK, PRESETS};

/// One glossary entry, as the page shows it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Term {
    pub id: TermId,
    /// The entry's heading: "Source read".
    pub term: String,
    /// How running text says it (matched whole-word, any case, the
    /// longest first): the page links the first mention in a text to this
    /// entry.
    pub phrases: &'static [&'static str],
    /// The metric whose sentence opens the definition (its `term` names this entry).
    pub metric: Option<MetricId>,
    /// What it means, in a few sentences.
    pub definition: String,
}

fn about(metric: MetricId) -> &'static str {
    METRICS.iter().find(|m| m.id == metric).map(|m| m.about).expect("every metric id has an entry")
}

fn term(id: TermId, term: &str, phrases: &'static [&'static str], metric: Option<MetricId>, rest: &str) -> Term {
    let definition = match metric {
        Some(m) => format!("{} {rest}", about(m)),
        None => rest.to_owned(),
    };
    Term { id, term: term.to_owned(), phrases, metric, definition }
}

/// "poor 64–512", … for every network preset.
fn presets() -> String {
    let parts: Vec<String> = PRESETS.iter().map(|p| format!("{} {}–{}", p.id, p.min, p.max)).collect();
    format!("{} bytes", parts.join(", "))
}

/// How many times the unbuffered reader's source reads on the page's
/// default link are std's, from the exact counts of that link (the
/// "Modelled" entry quotes it), rounded to a whole number.
pub fn default_read_ratio() -> u64 {
    let p = Params { readers: vec![ReaderKind::Unbuffered, ReaderKind::Std], ..Params::default() };
    let runs = experiment::counts(&p).expect("the default link counts");
    (runs[0].source_reads as f64 / runs[1].source_reads as f64).round() as u64
}

/// Every entry, in the order the Glossary lists them.
pub fn glossary() -> Vec<Term> {
    use MetricId as M;
    use TermId as T;
    let tolerance = (KNEE_TOLERANCE * 100.0).round();
    let pending_setting = settings::label(Lab::Read, key::PEND);
    let cost_setting = settings::label(Lab::Read, key::SYS);
    let kib_setting = settings::label(Lab::Read, key::SYS_KIB);
    let rate_setting = settings::label(Lab::Read, key::RATE);
    let work_setting = settings::label(Lab::Read, key::WORK);
    vec![
        term(
            T::SourceRead,
            "Source read",
            &["source reads", "source read"],
            Some(M::SourceReads),
            "The simulated source stands in for a file, pipe or socket, so each source read stands for one \
             read(2) system call. Over a regular file (the chunking called file) the count equals the read(2) calls the \
             kernel counts for the program the Code panel prints, run on the same bytes; over a pipe, the same \
             whenever the writer stays ahead of the reader.",
        ),
        term(
            T::AppRead,
            "App read",
            &["application reads", "application read", "app reads", "app read"],
            Some(M::AppReads),
            "One per read, read_exact, read_line or read_range call, whether the reader answers it from its \
             buffer or passes it on to the source.",
        ),
        term(
            T::Copy,
            "Bytes copied",
            &["bytes copied", "copies", "copied"],
            Some(M::BytesCopied),
            "std's BufReader copies each byte once, from its buffer to the caller, except when a read at least \
             as large as the buffer, made while the buffer is empty, goes straight to the source; a zero-copy \
             range read, like the chained reader's, copies none.",
        ),
        term(
            T::Allocation,
            "Allocation",
            &["reallocations", "allocations", "allocation"],
            Some(M::Allocations),
            "Counted the same way natively and in wasm, frees included. A reallocation is a growable buffer \
             asking for more room: the bytes so far move to a bigger block.",
        ),
        term(
            T::Chunking,
            settings::label(Lab::Read, key::CHUNK),
            &["chunking", "chunk sizes", "chunk size", "chunks", "chunk"],
            None,
            &format!(
                "How the source's bytes come in pieces. The network models draw each piece's size with the seed \
                 ({}); fixed k makes every piece k bytes; file answers every read in full, like a regular file; pipe \
                 allows {} KiB, like a pipe whose writer stays ahead. Without an {}, a read asking for n bytes gets \
                 at most the smallest of n, the bytes left and the next piece: a reader that keeps up with the \
                 network, one piece per read. With one, the pieces arrive in time and a read gets what has arrived.",
                presets(),
                PIPE_CHUNK / 1024,
                rate_setting.to_lowercase(),
            ),
        ),
        term(
            T::SystemCall,
            "System call",
            &["system calls", "system call"],
            None,
            &format!(
                "A call into the operating system's kernel, such as read(2) or write(2): far more than moving a few \
                 bytes in memory, and more the more bytes a read copies. A buffer exists to make fewer of them. \
                 BufLab counts each as a source read (reading) or a sink write (writing) and prices a source read \
                 with the {} and the {} you set; buflab real measures both on this machine's file, pipe and socket.",
                cost_setting.to_lowercase(),
                kib_setting.to_lowercase(),
            ),
        ),
        term(
            T::Pending,
            "Pending and polls",
            &["Pending", "polls", "poll"],
            Some(M::Polls),
            &format!(
                "An async read is a future, polled until it is ready. Pending is its answer while the socket has \
                 nothing to read yet (the setting {pending_setting} says for what share of source reads); the next \
                 poll then gets the chunk. A Pending costs one poll, never a source read; under a real runtime it is \
                 a trip through the scheduler.",
            ),
        ),
        term(
            T::Digest,
            "Digest",
            &["digests", "digest"],
            Some(M::Digest),
            "Every reader of one stream must hand the application the same bytes, so every digest must be the \
             same: that is BufLab's check that each strategy read correctly.",
        ),
        term(
            T::Exact,
            "Exact count",
            &["exact counts", "exact count", "exact"],
            None,
            "Counted by the engine in a pass that is not timed: the same on every run, in every browser and \
             natively, so a link reproduces it exactly. Source reads, app reads, bytes copied, allocations and \
             the digest are exact.",
        ),
        term(
            T::Measured,
            "Measured",
            &["measured"],
            Some(M::CpuMedianNs),
            "The timed pass runs only what the program would run (the reader, the application's loop, a minimal \
             sink) over a source with the same chunks and no counters, several times. Times depend on the \
             machine, the browser and what else runs: compare times taken on one machine.",
        ),
        term(
            T::Modelled,
            "Modelled",
            &["modelled"],
            Some(M::ModelledIoNs),
            &format!(
                "A simulated read costs a few ns in memory, a real read(2) far more, so CPU time alone would hide most \
                 of what the source reads cost: on the page's default link the unbuffered reader makes {}× std's source \
                 reads. The model prices each source read with the {} plus the {} for the bytes it returns; buflab \
                 real fits both to real reads of several sizes (a least-squares line, with how far the reads lie from \
                 it), and the headline's ratios are computed from the run's own totals. The page always says \
                 modelled beside such a time.",
                default_read_ratio(),
                cost_setting.to_lowercase(),
                kib_setting.to_lowercase(),
            ),
        ),
        term(
            T::Arrival,
            rate_setting,
            &["arrival rate", "arrive", "arrives", "arrived"],
            None,
            &format!(
                "How fast a pipe's or socket's pieces arrive: its writer's pace, in bytes per second. Without it each \
                 read gets one fresh piece, as for a reader that is always waiting for the next one. With it the \
                 reader keeps a modelled clock: each source read costs the {} and the {}, each piece of data the \
                 program receives costs the {}. A read gets what has arrived by then and is not yet read, up to what \
                 it asks and up to the kernel's {} KiB, and with nothing there it waits for the next piece. A \
                 program slower than its writer finds pieces waiting, joined, as a real pipe or socket hands them \
                 over; buflab real paces a real writer at the same rate to check.",
                cost_setting.to_lowercase(),
                kib_setting.to_lowercase(),
                work_setting.to_lowercase(),
                KERNEL_BUFFER / 1024,
            ),
        ),
        term(
            T::Sweep,
            "Sweep",
            &["sweeps", "sweep"],
            None,
            "The same settings run again at every power of two along one axis (buffer capacity, read size, \
             chunk size, stream length or streams), or along two at once as a heatmap, to see where a bigger \
             value stops paying.",
        ),
        term(
            T::Knee,
            "Knee",
            &["knees", "knee"],
            None,
            &format!(
                "Where a bigger value stops paying in a sweep: the smallest value whose count is within {tolerance}% \
                 of the best anywhere in the sweep, so going further wins at most another {tolerance}%. For measured \
                 times a point must be faster than the first by more than its samples' spread, so noise cannot \
                 invent a knee.",
            ),
        ),
        term(
            T::BufReader,
            "BufReader (a buffered reader)",
            &["BufReaders", "BufReader", "buffered reader", "buffered readers"],
            None,
            "A reader that sits between the program and a file, pipe or socket and keeps a block of memory, its \
             buffer. When the program asks for a few bytes, the BufReader asks the source for a whole buffer's \
             worth in one source read and hands out the following small reads from memory, so thousands of tiny \
             reads cost a handful of system calls. std::io::BufReader is Rust's; tokio's and futures' are the async \
             ones.",
        ),
        term(
            T::Capacity,
            settings::label(Lab::Read, key::CAP),
            &["buffer capacities", "buffer capacity", "capacities", "capacity"],
            None,
            "How many bytes a BufReader's buffer holds (8 KiB is std's default). A source read can fill at most \
             that much, so a bigger buffer means fewer source reads, but only up to what the source hands over in \
             one call: past that, more capacity is memory that stays empty.",
        ),
        term(
            T::ReadSize,
            settings::label(Lab::Read, key::READ_SIZE),
            &["read sizes", "read size"],
            None,
            "How many bytes the program asks for in each application read: 1 is the worst case a buffer exists \
             for (a parser reading byte by byte); 64 KiB is a program that already reads in large pieces.",
        ),
        term(
            T::Bypass,
            "Bypass",
            &["bypasses", "bypass", "goes straight to the source"],
            None,
            "A read at least as large as the buffer, made while the buffer is empty, skips it: std's BufReader \
             reads straight into the caller's memory, one source read and no copy, since buffering it would only \
             add a copy.",
        ),
        term(
            T::Chained,
            "Chained reader (zero-copy)",
            &["chained reader", "zero-copy", "chained"],
            None,
            "BufLab's reader after the Monibuca article: incoming data stays in a chain of memory blocks taken \
             from a pool, and the program is lent slices of those blocks instead of getting a copy (zero-copy); a \
             spent block goes back to the pool, so the next fill allocates nothing (Pool blocks: how many it took \
             from the pool).",
        ),
        term(
            T::Seed,
            settings::label(Lab::Read, key::SEED),
            &["seeds", "seed"],
            None,
            "The starting number of the random generator that draws the chunk sizes and the bytes. The same seed \
             gives the same chunks, the same bytes and so the same counts, on every run and in every browser: it \
             is why a link reproduces a result exactly. Change it to see a different draw of the same network.",
        ),
        term(
            T::Outlier,
            "Outlier",
            &["outliers", "outlier"],
            None,
            &format!(
                "A timed sample far from the others: farther from the median than {OUTLIER_FENCE} times the \
                 samples' usual spread (their median absolute deviation, scaled to a standard deviation's size), \
                 as when the browser paused to collect garbage. Outliers are counted and shown beside the spread \
                 (\"± … 2 outliers\"), never dropped.",
            ),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Id;

    #[test]
    fn every_term_id_has_one_entry_in_declaration_order() {
        assert_eq!(glossary().iter().map(|t| t.id).collect::<Vec<_>>(), TermId::all());
    }

    #[test]
    fn entries_are_complete_and_phrases_belong_to_one_term() {
        let all = glossary();
        for (i, t) in all.iter().enumerate() {
            assert!(!t.phrases.is_empty() && t.definition.ends_with('.'), "{:?}", t.id);
            for other in &all[i + 1..] {
                for p in t.phrases {
                    assert!(!other.phrases.iter().any(|q| q.eq_ignore_ascii_case(p)), "{p} in {:?} and {:?}", t.id, other.id);
                }
            }
        }
    }

    #[test]
    fn a_metric_entry_opens_with_the_metrics_own_sentence_and_the_metric_links_back() {
        for t in glossary() {
            if let Some(m) = t.metric {
                assert!(t.definition.starts_with(about(m)), "{:?}", t.id);
                assert_eq!(METRICS.iter().find(|e| e.id == m).unwrap().term, Some(t.id), "{m:?}");
            }
        }
        let chunking = glossary().into_iter().find(|t| t.id == TermId::Chunking).unwrap();
        assert!(chunking.definition.contains("poor 64–512") && chunking.definition.contains("64 KiB"), "{}", chunking.definition);
        let knee = glossary().into_iter().find(|t| t.id == TermId::Knee).unwrap();
        assert!(knee.definition.contains("within 5%"), "{}", knee.definition);
    }
}
