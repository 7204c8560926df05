//! The lessons: one guided experiment per source article, each a link.
//!
//! This module owns the lesson list. The page builds its lessons panel from
//! it (as generated data, `web/src/engine/lessons.gen.json`), the link key `lesson` is validated against
//! it, the README's "Lessons" section must list every link exactly
//! (`tests/lessons.rs` checks), and each lesson's claim is asserted on the real
//! result of its link in `tests/lessons.rs`. What must stay true:
//! - every link decodes without a notice and carries `lesson=<its own id>`;
//! - every link is canonical (`decode_link(link)` gives the same fragment
//!   back), so loading it does not rewrite the address;
//! - each lesson names the world its source lives in ([`World`]), and every
//!   count it quotes over a pipe or a socket holds over a real one, with the
//!   writer paced at the link's rate (`tests/arrival.rs` runs `buflab real`);
//! - the figures quoted in `notice` are the counts the link produces
//!   (they are exact and reproducible; the tests check the ones the claims rest on).

use serde::Serialize;

use crate::model::{Embed, Flavour, LessonId, Metric, ReaderKind};

/// One lesson, as the page's panel and the README show it.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Lesson {
    pub id: LessonId,
    /// The source article the experiment comes from, by its number ("000";
    /// the page's About panel credits each), or "sweep".
    pub seed: &'static str,
    pub title: &'static str,
    /// The link fragment, with its leading `#`, that loads the lesson.
    pub link: &'static str,
    /// What the experiment is and why it is set up this way.
    pub explanation: &'static str,
    /// Which world its source lives in ([`World`]).
    pub world: World,
    /// That world in a sentence: what the source stands for and why it is
    /// in that world.
    pub world_note: &'static str,
    /// What to look at in the results (2–3 points).
    pub notice: &'static [&'static str],
    /// The claim the lesson makes, in words; `tests/lessons.rs` asserts it on
    /// the link's real result.
    pub claim: &'static str,
    /// What the page asks before it shows the results (link key `predict`).
    pub question: Question,
    /// The charts the lesson's point is about (by their `embed` ids): the
    /// page shows them first, so they are on the first screen in presenter mode.
    pub charts: &'static [Embed],
    /// The changes the lesson's points suggest, each as the link it leads to:
    /// a person who follows one has not left the lesson (the page names the
    /// suggestion instead of calling the settings changed).
    pub suggestions: &'static [Suggestion],
    /// The shipped strace log (in `public/traces/`) the lesson opens in the
    /// page's trace panel; its link is that log's nearest experiment
    /// (`tests/lessons.rs` checks it against the engine's fit).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub log: Option<&'static str>,
}

/// Which of the two worlds a pipe or a socket can be in a lesson shows:
/// whether the reader waits for its data or the data waits for the reader.
/// Both are real (`buflab real` makes each on a real pipe and socket, with
/// its writer paced at the link's `rate`); which one a program lives in
/// depends on how fast the data arrives against how fast the program reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum World {
    /// A regular file: every read gets all it asks for.
    File,
    /// The writer is ahead: data waits in the kernel, and a read gets as
    /// much as it asks, up to the kernel's buffer.
    WriterAhead,
    /// The reader keeps up: it waits for each piece and gets one per read.
    ReaderWaiting,
    /// Both, side by side: a sweep along the arrival rate.
    Both,
    /// Memory alone: no file, pipe or socket (the write cursors).
    Memory,
}

/// A change a lesson's points suggest, as the link it leads to.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Suggestion {
    /// What changed, in words ("chunking poor, 64–512 bytes").
    pub text: &'static str,
    /// The lesson's link with that change (same `lesson`; canonical).
    pub link: &'static str,
}

/// A question with a numeric answer taken from the lesson's real result
/// (predict, then reveal). `tests/lessons.rs` reads the answer off the
/// link's result and checks that `why` quotes it.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Question {
    /// The question, asked before the results show.
    pub text: &'static str,
    /// Where the answer is in the result.
    pub answer: Answer,
    /// What the answer counts, written after the number ("source reads").
    pub unit: &'static str,
    /// The answer explained in words, the number quoted as the page formats it.
    pub why: &'static str,
}

/// Where a question's answer is in the lesson's result.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Answer {
    /// A count of one reader's run (`field`: its name in the report's JSON, e.g. `source_reads`).
    Read { reader: ReaderKind, field: &'static str },
    /// A count of one cursor flavour's run (`field`: its name in the write report's JSON).
    Write { flavour: Flavour, field: &'static str },
    /// The axis value at the knee of one reader's metric in the lesson's
    /// sweep; on a two-axis sweep, in the column where the second axis is `across`.
    Knee { reader: ReaderKind, metric: Metric, across: Option<u64> },
    /// How many application reads one buffer's worth serves, in the reader's
    /// timeline: from the step whose source read first fills the buffer up
    /// to the step before the next fill.
    FillServes { reader: ReaderKind },
}

/// Every lesson, in the order the page's guided path takes them (article order).
pub const LESSONS: [Lesson; 11] = [
    Lesson {
        id: LessonId::OneByte,
        seed: "000",
        title: "One byte at a time",
        link: "#v=1&len=1M&chunk=pipe&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&lesson=one-byte",
        explanation: "The BufRead article's client pulls 1 MB off a local socket with one read() call per byte, \
                      on purpose, to make the cost of tiny reads as visible as possible. Without a \
                      buffer each of those calls goes to the source, which in a real program is a \
                      system call. std's BufReader asks the source for up to 8 KiB at a time and \
                      serves the following one-byte reads out of memory. Here the source is a pipe \
                      whose writer stays ahead: the data waits in the kernel, so a read gets all it \
                      asks for, up to the pipe's 64 KiB.",
        world: World::WriterAhead,
        world_note: "Writer ahead: a pipe its writer keeps full, so the reader never waits and every read gets what it asks for.",
        notice: &[
            "Source reads: 1,048,577 without a buffer (one per byte, plus the final read that returns 0) against 129 through std's 8 KiB BufReader.",
            "The modelled I/O time follows the source reads; CPU time alone shows a smaller gap, as a simulated read costs nanoseconds and a system call far more.",
            "Change the chunking to poor (64–512 bytes), a network this reader keeps up with: it waits for each piece and gets one per source read, so std makes 28 times as many.",
        ],
        claim: "With 1-byte reads, the unbuffered reader makes at least 1000 times as many source \
                reads as std's BufReader.",
        charts: &[Embed::Reads],
        suggestions: &[Suggestion {
            text: "chunking poor (64–512 bytes)",
            link: "#v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&lesson=one-byte",
        }],
        log: None,
        question: Question {
            text: "How many source reads does std's BufReader make to read 1 MiB one byte at a time through its 8 KiB buffer?",
            answer: Answer::Read { reader: ReaderKind::Std, field: "source_reads" },
            unit: "source reads",
            why: "The pipe always has more than 8 KiB waiting, so every source read fills the whole buffer: \
                  1 MiB is 128 buffers of 8 KiB, plus the final read that returns 0, 129 source reads.",
        },
    },
    Lesson {
        id: LessonId::NoHelp,
        seed: "000",
        title: "When a buffer does not help: large reads, many streams",
        link: "#v=1&len=64K&chunk=file&seed=42&cap=8K&rs=64K&sys=150&rd=unbuffered,std&wl=fixed&streams=100&lesson=no-help",
        explanation: "The BufRead article warns that BufReader is not always worth having. This run combines two \
                      of its cases: the application already reads in large pieces (64 KiB per call, \
                      eight times the buffer), and 100 files are open at once, each with its own \
                      reader. The article expects large reads to pay an extra copy through the buffer; \
                      std avoids even that, because a read at least as large as the buffer, made \
                      while the buffer is empty, goes straight to the source. So the buffer saves \
                      nothing, yet every stream still pays for one. Natively each run also pays page \
                      faults and brk calls for those buffers (the command line counts both); a wasm \
                      memory never shrinks, so this tab shows none of that.",
        world: World::File,
        world_note: "A regular file: all its bytes are there, so every read gets what it asks for.",
        notice: &[
            "Both make 200 source reads (two per stream) and copy 0 bytes: the 64 KiB reads bypass std's buffer.",
            "std allocates an 8 KiB buffer per stream: 100 allocations and 800 KiB, not one read saved.",
            "Set the read size to 1 and the buffer earns its keep again; more streams, more buffers.",
        ],
        claim: "With the read size above the buffer capacity, std's BufReader copies no bytes and \
                makes exactly as many source reads as the unbuffered reader, while its allocations \
                grow as streams × capacity.",
        charts: &[Embed::Allocs, Embed::Copied],
        suggestions: &[Suggestion {
            text: "read size 1",
            link: "#v=1&len=64K&chunk=file&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&streams=100&lesson=no-help",
        }],
        log: None,
        question: Question {
            text: "How many bytes do std's buffers take across the 100 streams, when every read asks for 64 KiB?",
            answer: Answer::Read { reader: ReaderKind::Std, field: "alloc_bytes" },
            unit: "bytes allocated",
            why: "One 8 KiB buffer (8,192 bytes) per stream, 100 streams: 819,200 bytes, and not one \
                  source read saved, since every 64 KiB read goes past the buffer.",
        },
    },
    Lesson {
        id: LessonId::AsyncBufreader,
        seed: "000",
        title: "Async BufReader",
        link: "#v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=std,tokio,futures&wl=fixed&pend=50\
               &lesson=async-bufreader",
        explanation: "Network code that picks a buffer size is mostly async: tokio::io::BufReader or \
                      futures::io::BufReader over a socket. This is the BufRead article's experiment, 1 MiB read one \
                      byte at a time through an 8 KiB buffer, over a poor network, with both async readers \
                      beside std's. Here each read is a future, polled until it is ready; before half of \
                      the source's reads the socket is not readable yet, so the first poll answers Pending \
                      and the next one gets the chunk.",
        world: World::ReaderWaiting,
        world_note: "Reader waiting: a poor network the program keeps up with, so each source read waits for the next piece and gets that one.",
        notice: &[
            "Source reads: 3,641 for all three, and 1,048,576 bytes copied each: the async BufReaders fill and drain their buffers as std's does.",
            "Polls: 1,050,384 per async reader, one per application read plus one per Pending (1,807). A Pending costs a poll, never a source read.",
            "Set the chunking to pipe, a pipe kept full, and the workload to read_to_end: std needs 20 source reads, tokio and futures 17; from a file, all three need 2.",
        ],
        claim: "Over the same chunks, tokio's and futures' BufReader make exactly as many source reads and \
                copies as std's; a source that is not yet ready adds one poll per Pending and no source read.",
        charts: &[Embed::Reads],
        suggestions: &[
            Suggestion {
                text: "chunking pipe and the workload read_to_end",
                link: "#v=1&len=1M&chunk=pipe&seed=42&cap=8K&rs=1&sys=150&rd=std,tokio,futures&wl=to_end&pend=50\
                       &lesson=async-bufreader",
            },
            Suggestion {
                text: "a file and the workload read_to_end",
                link: "#v=1&len=1M&chunk=file&seed=42&cap=8K&rs=1&sys=150&rd=std,tokio,futures&wl=to_end&pend=50\
                       &lesson=async-bufreader",
            },
        ],
        log: None,
        question: Question {
            text: "How many source reads does std's 8 KiB BufReader make for 1 MiB over a network that \
                   hands over 64 to 512 bytes per read?",
            answer: Answer::Read { reader: ReaderKind::Std, field: "source_reads" },
            unit: "source reads",
            why: "Each source read gets one chunk, never enough to fill the 8 KiB buffer. Chunks of \
                  64–512 bytes are 288 bytes on average, so 1 MiB takes 1,048,576 ÷ 288 ≈ 3,641 source reads.",
        },
    },
    Lesson {
        id: LessonId::BytesVsToEnd,
        seed: "001",
        title: "bytes() against read_to_end",
        link: "#v=1&len=1M&chunk=file&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=bytes&lesson=bytes-vs-to-end",
        explanation: "The file-reading article's first scanner looked for a NUL byte by walking each File with \
                      Read::bytes(), and it ran several times slower than the same program in Go. \
                      bytes() asks for a single byte per call, so on an unbuffered file every byte \
                      is a system call. The article's fix was to make a Vec as large as the file, \
                      fill it with read_to_end, and scan the Vec. This lesson opens on the slow \
                      version; the second point below switches to the fix.",
        world: World::File,
        world_note: "A regular file: all its bytes are there, so every read gets what it asks for.",
        notice: &[
            "bytes() on the unbuffered file: 1,048,577 source reads for 1 MiB; through an 8 KiB BufReader, 129.",
            "Switch the workload to \"read_to_end, then scan\": both readers need 2 source reads (the file into the Vec, then its end), and the Vec is one allocation of the file's size; std's buffer is a second that does nothing.",
            "A program that walks many files can keep one Vec and clear it between files; the frames workload's reuse switch shows the saving.",
        ],
        claim: "bytes() without a buffer makes one source read per byte; read_to_end into a Vec \
                sized from the file needs 2 source reads (the file, then its end) and one \
                allocation of the file's size, with or without a BufReader.",
        charts: &[Embed::Reads],
        suggestions: &[Suggestion {
            text: "the workload \"read_to_end, then scan\"",
            link: "#v=1&len=1M&chunk=file&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=to_end&lesson=bytes-vs-to-end",
        }],
        log: None,
        question: Question {
            text: "How many source reads does bytes() make on the unbuffered 1 MiB file?",
            answer: Answer::Read { reader: ReaderKind::Unbuffered, field: "source_reads" },
            unit: "source reads",
            why: "bytes() asks for one byte per call and nothing buffers it: one source read per byte, \
                  1,048,576, plus the final read that returns 0, 1,048,577 source reads.",
        },
    },
    Lesson {
        id: LessonId::ChainedWorst,
        seed: "002",
        title: "The chained reader on a worst-case network",
        link: "#v=1&len=1M&chunk=worst&seed=42&cap=4K&rs=1&sys=150&rd=std,chained&wl=frames&lesson=chained-worst",
        explanation: "The Monibuca article pits Go's bufio.Reader against a reader that keeps incoming data in a \
                      chain of pooled memory blocks and lends the application slices of them rather \
                      than copying. Here the stream is length-prefixed frames (a 4-byte length, then \
                      64 B to 1 KiB of payload) arriving 1 to 128 bytes at a time, the article's \
                      worst network. std reads each payload into a new Vec; the chained reader hands out \
                      ranges of its 4 KiB blocks and puts spent blocks back into its pool.",
        world: World::ReaderWaiting,
        world_note: "Reader waiting: the worst network, which the program keeps up with, so each source read gets one tiny piece.",
        notice: &[
            "Bytes copied: 1,048,576 for std (every byte once through its buffer), 0 for the chained reader.",
            "Allocations: 1,894 for std, about one Vec per frame; 3 for the chained reader, which took its one block back from the pool 16,190 times.",
            "Both make 16,269 source reads: tiny chunks limit everyone. Turn the block pool off and the chained reader allocates a block per fill.",
        ],
        claim: "Under the worst chunking, the chained reader copies no bytes and, with its block \
                pool on, makes at least 100 times fewer allocations than std's BufReader.",
        charts: &[Embed::Copied, Embed::Allocs],
        suggestions: &[Suggestion {
            text: "the block pool off",
            link: "#v=1&len=1M&chunk=worst&seed=42&cap=4K&rs=1&sys=150&rd=std,chained&wl=frames&pool=off&lesson=chained-worst",
        }],
        log: None,
        question: Question {
            text: "How many heap allocations does std's BufReader make reading 1 MiB of frames?",
            answer: Answer::Read { reader: ReaderKind::Std, field: "allocations" },
            unit: "allocations",
            why: "One for its 4 KiB buffer and one Vec for each frame's payload: frames of 64 B to 1 KiB \
                  (548 bytes on average with the 4-byte length) fill 1 MiB about 1,900 times, 1,894 allocations \
                  in all. The chained reader lends slices of its pooled blocks instead.",
        },
    },
    Lesson {
        id: LessonId::Cursors,
        seed: "004",
        title: "Seven write cursors",
        link: "#v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&lab=write\
               &recs=2K&icap=0&buf=32K&wf=cursor_vec,cursor_mut_vec,writer_vec,bytes_mut,cursor_mut_slice,cursor_box,mut_slice\
               &wlen=1M&ws=16&wcap=8K&sink=file&lesson=cursors",
        explanation: "The write-cursor article serializes 2,048 records of 16 bytes with bincode into seven in-memory \
                      writers and times them. Four can grow: Cursor<Vec<u8>>, Cursor<&mut Vec<u8>>, \
                      a hand-made WriterVec and BytesMut. Three write into a fixed slice: \
                      Cursor<&mut [u8]>, Cursor<Box<[u8]>> and &mut [u8] itself. This lesson opens \
                      the write lab with the growable ones starting empty, so their growth shows.",
        world: World::Memory,
        world_note: "Memory alone: the cursors write into buffers in memory, with no file, pipe or socket.",
        notice: &[
            "Every growable cursor reallocates 12 times (13 allocations) on its way to 32 KiB; the fixed ones allocate once and never reallocate.",
            "All seven write the same 32,768 bytes: the bytes check says identical for each.",
            "Start the growable cursors at 32K and their reallocations drop to 0; set the fixed buffer to 16K and the fixed ones stop with WriteZero. Times are measured in this tab.",
        ],
        claim: "Starting empty, every growable cursor reallocates on its way to 32 KiB, while the \
                fixed-buffer cursors allocate exactly once and never reallocate; all seven write \
                identical bytes.",
        charts: &[Embed::Reallocs],
        suggestions: &[
            Suggestion {
                text: "the growable cursors starting at 32K",
                link: "#v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&lab=write\
                       &recs=2K&icap=32K&buf=32K&wf=cursor_vec,cursor_mut_vec,writer_vec,bytes_mut,cursor_mut_slice,cursor_box,mut_slice\
                       &wlen=1M&ws=16&wcap=8K&sink=file&lesson=cursors",
            },
            Suggestion {
                text: "the fixed buffer at 16K",
                link: "#v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&lab=write\
                       &recs=2K&icap=0&buf=16K&wf=cursor_vec,cursor_mut_vec,writer_vec,bytes_mut,cursor_mut_slice,cursor_box,mut_slice\
                       &wlen=1M&ws=16&wcap=8K&sink=file&lesson=cursors",
            },
        ],
        log: None,
        question: Question {
            text: "How many times does Cursor<Vec<u8>> reallocate while it grows from empty to 32 KiB?",
            answer: Answer::Write { flavour: Flavour::CursorVec, field: "reallocs" },
            unit: "reallocations",
            why: "A Vec<u8> starts at 8 bytes and doubles when full: 16, 32, … 32,768 is 12 doublings, \
                  so 12 reallocations.",
        },
    },
    Lesson {
        id: LessonId::FastSender,
        seed: "000",
        title: "A sender faster than the program",
        link: "#v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=64&sys=150&rd=unbuffered,std&wl=fixed&rate=32M&work=6400\
               &lesson=fast-sender",
        explanation: "The BufRead article's client reads from a server that sends everything at once, so the data \
                      waits for the client. Here the pieces are a poor network's, 64 to 512 bytes, but they arrive \
                      at 32 MiB/s, while the program spends 6.4 µs on each 64-byte record it reads (100 ns a byte) \
                      and so handles about 9.5 MiB/s. The sender is three times as fast: the pieces pile up in the \
                      kernel, and a read takes as many of them as it asks for.",
        world: World::WriterAhead,
        world_note: "Writer ahead: the pieces arrive faster than the program handles them, so they wait in the kernel, joined.",
        notice: &[
            "std's source reads: about as many as from a file, far fewer than the pieces sent. The kernel joined the pieces that waited, and each read filled the 8 KiB buffer.",
            "The unbuffered reader asks for 64 bytes per read and gets 64 every time: 16,385 source reads, as from a file.",
            "Slow the sender to 2 MiB/s: the program keeps up, waits for each piece, and std makes one source read per piece, 28 times as many.",
        ],
        claim: "Behind a sender faster than the program, std's source reads fill its buffer: within 5 % of the \
                reads from a regular file. At a pace the program keeps up with, std makes one source read per piece.",
        charts: &[Embed::Reads],
        suggestions: &[Suggestion {
            text: "the sender at 2 MiB/s",
            link: "#v=1&len=1M&chunk=poor&seed=42&cap=8K&rs=64&sys=150&rd=unbuffered,std&wl=fixed&rate=2M&work=6400\
                   &lesson=fast-sender",
        }],
        log: None,
        question: Question {
            text: "How many source reads does std's 8 KiB BufReader make for 1 MiB, behind a sender three times as \
                   fast as the program?",
            answer: Answer::Read { reader: ReaderKind::Std, field: "source_reads" },
            unit: "source reads",
            why: "The pieces wait in the kernel, so every read fills the 8 KiB buffer: 1 MiB is 128 buffers, a few \
                  reads at the start get less while the backlog builds, and the last read finds the end: 132 \
                  source reads.",
        },
    },
    Lesson {
        id: LessonId::BufferSize,
        seed: "sweep",
        title: "Choosing a buffer size",
        link: "#v=1&len=1M&chunk=good&seed=42&cap=8K&rs=64&sys=150&rd=std,chained&wl=fixed&rate=32M&work=6400\
               &sweep=cap,rate&from=512,2M&to=64K,32M&lesson=buffer-size",
        explanation: "How large should a buffer be? It depends on who waits for whom. This sweep reads 1 MiB in \
                      64-byte records over a good network (pieces of 1 to 4 KiB) through std's BufReader and the \
                      chained reader, with buffer capacities from 512 bytes to 64 KiB (the rows) against the rate \
                      the pieces arrive at, 2 to 32 MiB/s (the columns). The program spends 6.4 µs on each record, \
                      about 9.5 MiB/s: in the slower columns it waits for the network, in the faster ones the \
                      network's pieces wait for it.",
        world: World::Both,
        world_note: "Both worlds: in the columns slower than the program the reader waits for each piece; in the faster ones the pieces wait in the kernel.",
        notice: &[
            "In the slower columns std's source reads stop falling where the buffer holds the largest piece: each \
             read gets one piece, however large the buffer.",
            "In the faster columns they keep falling much further: every read fills the buffer with pieces that \
             waited, up to what the kernel holds. The knee line jumps where the sender overtakes the program.",
            "Past the knee, each doubling of the capacity only doubles the memory the buffer takes.",
        ],
        claim: "In a sweep of capacity against arrival rate, std's source reads stop falling at the largest piece \
                while the program keeps up with the sender, and only at the kernel's buffer once the sender is faster.",
        charts: &[Embed::Sweep],
        suggestions: &[],
        log: None,
        question: Question {
            text: "With the pieces arriving at 32 MiB/s, faster than the program handles them, at what buffer \
                   capacity, in bytes, do std's source reads stop falling?",
            answer: Answer::Knee { reader: ReaderKind::Std, metric: Metric::SourceReads, across: Some(32 << 20) },
            unit: "bytes of capacity",
            why: "The sender is ahead, so the pieces wait in the kernel and every read fills the buffer: a bigger \
                  buffer keeps saving reads until it reaches what the kernel holds, 65,536 bytes.",
        },
    },
    Lesson {
        id: LessonId::KneeGrid,
        seed: "sweep",
        title: "The knee follows the chunk",
        link: "#v=1&len=256K&chunk=poor&seed=42&cap=8K&rs=1&sys=150&rd=std,chained&wl=fixed\
               &sweep=cap,chunk&from=32,64&to=4K,1K&lesson=knee-grid",
        explanation: "The buffer-size sweep found the knee at the largest piece while the program keeps up \
                      with its network. Is that a property of the buffer or of the network? This two-axis sweep \
                      reads 256 KiB a byte at a time with every buffer capacity from 32 bytes to 4 KiB \
                      (the rows) against sources that hand over fixed chunks of 64 bytes to 1 KiB (the \
                      columns). The heatmap colours each pair by its source reads; the line marks where \
                      a bigger buffer stops paying in each column.",
        world: World::ReaderWaiting,
        world_note: "Reader waiting: sources that hand over fixed pieces the reader keeps up with, one per source read.",
        notice: &[
            "The knee line is the diagonal: in every column, std's source reads stop falling where the capacity reaches the chunk size.",
            "From the diagonal on, each source read gets one chunk, whatever the buffer: 4,097 reads at 64-byte chunks, 257 at 1 KiB.",
            "Pick the chained reader in the heatmap: its knees follow the same diagonal.",
        ],
        claim: "In a sweep of buffer capacity against fixed chunk sizes, std's source reads stop falling \
                where the capacity equals the chunk size, in every column.",
        charts: &[Embed::Sweep],
        suggestions: &[],
        log: None,
        question: Question {
            text: "When every source read hands over a 1 KiB chunk, at what buffer capacity, in bytes, do std's \
                   source reads stop falling?",
            answer: Answer::Knee { reader: ReaderKind::Std, metric: Metric::SourceReads, across: Some(1024) },
            unit: "bytes of capacity",
            why: "One source read gets at most one 1 KiB chunk, 1,024 bytes, so a buffer larger than that is \
                  never filled by one read: the knee sits at 1,024, as it sits at the chunk size in every column.",
        },
    },
    Lesson {
        id: LessonId::BufferTimeline,
        seed: "000",
        title: "A buffer fills, drains and refills",
        link: "#v=1&len=1M&chunk=poor&seed=42&cap=256&rs=8&sys=150&rd=unbuffered,std&wl=fixed\
               &view=timeline&step=33&lesson=buffer-timeline",
        explanation: "The BufRead article's point, one step at a time: the buffer timeline replays the \
                      first 100 application reads of std's BufReader. A 256-byte buffer read 8 bytes at \
                      a time over a poor network (chunks of 64 to 512 bytes) is small enough that a \
                      fill, its drain and the refill all fit in view. The lesson opens on step 33, the \
                      refill.",
        world: World::ReaderWaiting,
        world_note: "Reader waiting: a poor network the reader keeps up with, so a source read gets at most one piece.",
        notice: &[
            "Step 1: the buffer is empty, so one source read fills all 256 bytes; the application gets its first 8.",
            "Steps 2 to 32 are served from memory: 31 reads, no source read. Step 33 finds the buffer empty and makes the second source read.",
            "Pick unbuffered in the timeline: there every step is a source read.",
        ],
        claim: "With a 256-byte buffer read 8 bytes at a time, std's first source read fills the whole \
                buffer, which serves 32 application reads; the next source read comes at step 33.",
        charts: &[Embed::Timeline],
        suggestions: &[],
        log: None,
        question: Question {
            text: "How many 8-byte application reads does one fill of std's 256-byte buffer serve?",
            answer: Answer::FillServes { reader: ReaderKind::Std },
            unit: "application reads",
            why: "256 bytes ÷ 8 bytes per read = 32 application reads from one fill; the 33rd finds the \
                  buffer empty and makes the next source read.",
        },
    },
    Lesson {
        id: LessonId::OwnLog,
        seed: "log",
        title: "A real program's reads",
        link: "#v=1&len=1056&chunk=file&seed=42&cap=8K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&lesson=own-log",
        explanation: "A real program, recorded with strace (scripts/record-trace.sh): cat writes a 1,056-byte \
                      file into a pipe and bash's while-read loop reads it line by line. Its read builtin must stop at \
                      the end of a line and cannot give back bytes it read past it on a pipe (the next command \
                      would lose them), so bash asks the pipe for one byte per read(2). The lesson's link is the \
                      experiment nearest to those reads, as the trace panel finds it: the same requests, from a \
                      source that answers every one in full.",
        world: World::File,
        world_note: "As a file: cat had written the bytes into the pipe before bash read them, so every read got all it asked for.",
        notice: &[
            "The log: 1,057 read calls of 1 byte for 1,056 bytes, the last finding the end; unbuffered Read makes the same 1,057 source reads.",
            "std's 8 KiB BufReader would make 2 source reads of the same requests: one takes all 1,056 bytes, one finds the end.",
            "Open the log below to see every descriptor, and bash's requests replayed at other capacities.",
        ],
        claim: "bash's while-read loop makes one read call per byte of its pipe (1,057 for 1,056 bytes); the \
                same requests through an 8 KiB BufReader make 2 source reads.",
        charts: &[Embed::Reads],
        suggestions: &[],
        log: Some("bash-while-read.strace"),
        question: Question {
            text: "bash's read builtin asks its pipe for one byte per read(2) call. How many read calls does it make for the 1,056 bytes cat wrote?",
            answer: Answer::Read { reader: ReaderKind::Unbuffered, field: "source_reads" },
            unit: "read calls",
            why: "One call per byte, 1,056 of them, and one more that gets 0 bytes, the end of the pipe: 1,057 \
                  read calls. Through an 8 KiB BufReader the same requests would make two: one that takes all \
                  the bytes into its buffer, one that finds the end.",
        },
    },
];

/// The lesson with this id.
pub fn lesson(id: LessonId) -> &'static Lesson {
    LESSONS.iter().find(|l| l.id == id).expect("every lesson id has a lesson")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Id;

    #[test]
    fn every_lesson_id_has_one_lesson_in_declaration_order() {
        assert_eq!(LESSONS.iter().map(|l| l.id).collect::<Vec<_>>(), LessonId::all());
        for l in &LESSONS {
            assert_eq!(lesson(l.id).title, l.title);
        }
        assert_eq!(LessonId::from_id("One-Byte"), None, "ids are matched exactly; the decoder lower-cases first");
    }

    #[test]
    fn every_lesson_is_complete_and_links_to_itself() {
        for l in &LESSONS {
            assert!(l.link.starts_with("#v=1&"), "{}", l.link);
            assert!(l.link.ends_with(&format!("&lesson={}", l.id.id())), "{}", l.link);
            assert!(!l.link.contains(' '), "a continuation line left a space in {}", l.link);
            assert!((2..=3).contains(&l.notice.len()), "{}", l.id.id());
            assert!(!l.explanation.is_empty() && !l.claim.is_empty() && !l.title.is_empty());
            assert!(!l.charts.is_empty(), "{} names the chart its point is about", l.id.id());
            assert!(!l.question.text.is_empty() && !l.question.why.is_empty(), "{}", l.id.id());
        }
    }
}
