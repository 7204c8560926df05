// Generated from the Rust types by crate/src/types.rs (ts-rs): do not edit.
// `npm run types` rewrites it; `cargo test` fails while it is stale.

/**
 * The second axis of a two-axis sweep: `axis` stepped through the powers of
 * two from `from` to `to`.
 */
export type Across = { axis: SweepAxis, from: number, to: number, };

/**
 * Where a question's answer is in the lesson's result.
 */
export type Answer = { "kind": "read", reader: ReaderKind, field: string, } | { "kind": "write", flavour: Flavour, field: string, } | { "kind": "knee", reader: ReaderKind, metric: Metric, across: number | null, } | { "kind": "fill_serves", reader: ReaderKind, };

/**
 * How a reader met a source living in time: its modelled clock, in exact
 * counts of what it did (see `engine::source::Arrival`).
 */
export type ArrivalCounts = { 
/**
 * Source reads that found nothing arrived and waited for the next piece.
 */
waits: number, 
/**
 * Modelled time those reads waited, in ns.
 */
waited_ns: number, 
/**
 * Source reads that returned bytes of more than one piece: pieces the
 * kernel held joined because the reader was behind.
 */
joined: number, 
/**
 * The reader's modelled clock at the end, in ns: its source reads
 * (`sys`, `sys_kib`), the application's work per piece (`work`) and
 * the waiting. The writer's pace alone needs `len ÷ rate`.
 */
elapsed_ns: number, };

/**
 * Blocks handed out by the chained reader's pool during a run.
 */
export type BlockCounts = { 
/**
 * Blocks that had to be allocated.
 */
allocated: number, 
/**
 * Blocks handed out again from the pool instead.
 */
reused: number, };

/**
 * An inclusive range of allowed values.
 */
export type Bounds = { min: number, max: number, };

/**
 * A range of sizes and how many calls fell in it.
 */
export type Bucket = { 
/**
 * Smallest size in the bucket.
 */
from: number, 
/**
 * Largest size in the bucket.
 */
to: number, count: number, };

/**
 * A calibration of `sys` in the browser: unbuffered reads of the link's
 * read size, each one real call into the browser's file system.
 */
export type Calibration = { 
/**
 * What was read (`opfs` in the browser).
 */
source: SysSource, 
/**
 * Bytes asked for per call (the link's read size).
 */
read_size: number, 
/**
 * Bytes in the file read back (a prefix of the link's stream).
 */
file_bytes: number, 
/**
 * Real read calls in the timed samples (the probe and the check not
 * counted).
 */
calls: number, 
/**
 * Time of one real read call; each sample reads the whole file and
 * counts as one run of `batch` calls.
 */
ns_per_call: Stats, 
/**
 * Time of one read of the same size over the in-memory source.
 */
in_memory_ns: number, 
/**
 * `ns_per_call.median − in_memory_ns`, whole ns, within `sys`'s limits.
 */
sys: number, 
/**
 * The bytes read back equal the stream's.
 */
bytes_ok: boolean, timer: Timer, };

/**
 * Who counted a real run's read calls.
 */
export type CallCounter = "kernel" | "wrapper";

/**
 * One setting that differs between A and B, as a link writes it.
 */
export type Changed = { 
/**
 * The link key (without `b.`).
 */
key: string, 
/**
 * A's value, as a link writes it (`8K`); `None` where A has none (a
 * sweep's `from` without a sweep).
 */
a: string | null, 
/**
 * B's value.
 */
b: string | null, };

/**
 * One choice of a lesson's question.
 */
export type Choice = { letter: Letter, value: number, 
/**
 * The real answer (exactly one choice has it).
 */
real: boolean, 
/**
 * What the number is: the run it counts ("std's BufReader with its
 * buffer at 16 KiB"), for the reveal to explain a wrong answer.
 */
what: string, 
/**
 * The BufLab link (a fragment with its `#`) of the run or sweep that
 * counts it, when there is one: `buflab --counts --json` on it gives
 * the number (`tests/quiz.rs` checks the read lessons').
 */
link: string | null, };

/**
 * How the stream is cut into pieces, one piece per read call at most.
 */
export type ChunkModel = { "kind": "uniform", min: number, max: number, } | { "kind": "fixed", size: number, } | { "kind": "file" } | { "kind": "pipe" };

/**
 * The rules of a comparison (`engine::compare`), for the page's words.
 */
export type CompareInfo = { 
/**
 * The prefix of B's keys in a comparison link (`b.`).
 */
b_prefix: string, 
/**
 * Alternating rounds of a settled comparison, and of a quick one.
 */
rounds: number, quick_rounds: number, 
/**
 * The nominal confidence of a ratio's interval.
 */
confidence: number, 
/**
 * How far beyond 1 the interval must lie for faster or slower.
 */
margin: number, 
/**
 * Separate measurements: the factor a time must differ by.
 */
separate_factor: number, 
/**
 * The largest result file the engine reads, in bytes: the page reads no
 * more of a file than this and one byte.
 */
max_result_bytes: number, 
/**
 * What carries from one machine to another, in a few sentences.
 */
across_machines: string, };

/**
 * One metric of one pair of runs.
 */
export type Compared = { metric: MetricId, 
/**
 * A's figure (a time: the median); `None` where A has no such figure
 * (polls of a blocking reader, a time not taken).
 */
a: number | null, b: number | null, 
/**
 * B − A.
 */
difference: number | null, 
/**
 * B ÷ A (for a time, the median of the per-round ratios when taken in
 * alternating rounds); `None` where A is 0 or either side has none.
 */
ratio: number | null, outcome: Outcome, 
/**
 * The spread of A's figure (a time's [`SpreadKind::Mad`] over its rounds
 * or samples); `None` for an exact figure.
 */
a_spread: Spread | null, b_spread: Spread | null, 
/**
 * The ratio's interval the outcome was read from (`None` for exact figures).
 */
ratio_spread: Spread | null, 
/**
 * A time as multiples of that side's copy floor ("× copy").
 */
a_x_copy: number | null, b_x_copy: number | null, 
/**
 * Times measured separately on two machines: the outcome read from the
 * × copy figures (ns do not carry across machines); `None` otherwise.
 */
x_copy_outcome: Outcome | null, 
/**
 * One sentence a person reads: what B's figure is against A's, and on
 * what grounds (filled in beside the link, `crate::api`).
 */
says: string, };

/**
 * B of a comparison link.
 */
export type Comparing = { 
/**
 * B's params: A's, with the `b.` keys applied, and A's display fields.
 */
params: Params, 
/**
 * The canonical comparison link: A's canonical link, then B's `b.`
 * keys ([`encode_pair`]).
 */
fragment: string, 
/**
 * The settings that differ, in the key table's order; empty for an A/A
 * comparison.
 */
changed: Array<Changed>, };

/**
 * Two experiments compared: both reports and the comparison of each reader
 * and metric.
 */
export type Comparison = { 
/**
 * Always `compare`: tells a comparison from a lab's report.
 */
kind: "compare", 
/**
 * A's report (its times are the rounds' medians when alternating).
 */
a: Report, b: Report, 
/**
 * The comparison link (A's link with B's `b.` keys).
 */
link: string, 
/**
 * The settings that differ, in the link's key order; empty for A/A.
 */
changed: Array<Changed>, 
/**
 * A and B are the same experiment (display keys aside).
 */
same_experiment: boolean, timing: Timing, readers: Array<PairedRun>, 
/**
 * The copy floors of A and B (`Report::copy_ns`), compared as a time.
 */
copy: Compared | null, 
/**
 * Sentences on what the comparison rests on: how the times were taken,
 * what carries across machines, counts that disagree.
 */
notes: Array<string>, 
/**
 * [`super::report::REPORT_FORMAT`].
 */
format: number | null, 
/**
 * Where A and B both have a sweep (a comparison link with `sweep`):
 * both sweeps, their points run in alternating order, and the knee of
 * each side paired. The rest of the comparison is of the single runs
 * at the link's other settings.
 */
sweeps?: SweepComparison, };

/**
 * How a form edits a setting.
 */
export type Control = "size" | "count" | "flag" | "size_or_off" | "chunk" | "len_range" | "pick";

/**
 * What a link decodes to.
 */
export type Decoded = { params: Params, notices: Array<Notice>, 
/**
 * The canonical fragment for `params`.
 */
fragment: string, 
/**
 * The links the page keeps for `params` ([`links`]): its run link, its
 * sweep link, the address bar's and the view they show.
 */
links: Links, 
/**
 * B, when the link compares two experiments (`b.` keys): its params,
 * the canonical comparison link and what differs from A. `params` and
 * `fragment` above are A's alone.
 */
compare?: Comparing, 
/**
 * The link as given, when this build cannot read all of it: the
 * counting build leaves out `b.` keys and unknown keys' notices (cargo
 * feature `full-codec`), so a link with any key that is not one of A's
 * is read again by a build that has them. `params`, `links` and
 * `notices` are then of A's keys alone.
 */
deferred?: string, };

/**
 * One file descriptor's reads. A descriptor number reused after a `close`
 * (or seen naming another file) is a new [`Descriptor`], with the next
 * `opening`.
 */
export type Descriptor = { 
/**
 * Index in [`TraceReport::descriptors`].
 */
id: number, 
/**
 * The descriptor number (-1 for a `buflab real` run).
 */
fd: number, 
/**
 * Which opening of this number it is in the process that opened it:
 * 1 for the first the log shows, 2 after it was closed and reused, …
 * (0: past the bound on counted numbers).
 */
opening: number, 
/**
 * The path it was opened with, or `-y`'s name (`pipe:[1234]`),
 * shortened to [`super::limits::TraceLimits::path_chars`].
 */
path?: string, 
/**
 * `-y`'s name for it when that differs from `path` (a resolved path).
 */
resolved?: string, named_by: NamedBy, kind: SourceKind, 
/**
 * The first process (thread) that read it, and how many read it.
 */
pid: number, pids: number, 
/**
 * Read calls of every kind, failed ones included.
 */
calls: number, 
/**
 * The calls per system call (`read`, `readv`, `pread64`, `recvfrom`, …).
 */
syscalls: Array<NamedCount>, 
/**
 * Bytes returned.
 */
bytes: number, 
/**
 * Sizes asked for, over the calls that did not fail.
 */
asked: Sizes, 
/**
 * Sizes returned, over the calls that did not fail (0: end of file).
 */
returned: Sizes, 
/**
 * Sizes returned by the short reads, but those right before an end
 * of file: the sizes of the pieces the data arrived in.
 */
short_sizes: Sizes, 
/**
 * Calls that returned less than they asked for, but not 0.
 */
short_reads: number, 
/**
 * Of those, the ones right before an end of file: a file's last
 * partial read, not a sign of data arriving in pieces.
 */
short_at_end: number, 
/**
 * Calls that asked for bytes and got 0: end-of-file probes (for a
 * socket, the peer's close).
 */
eof: number, 
/**
 * Calls that asked for 0 bytes.
 */
empty_asks: number, 
/**
 * Failed calls by error (`EAGAIN`, `EINTR`, `ERESTARTSYS`, `?` for a
 * call that never returned, …).
 */
errors: Array<NamedCount>, failed: number, 
/**
 * `pread64`/`preadv` calls: each reads at an offset of its own, so the
 * replay leaves them out.
 */
positional: number, 
/**
 * Seconds inside the read calls (`-T`).
 */
in_calls_s?: number, 
/**
 * Seconds from the log's first timestamp to the first and last call.
 */
first_s?: number, last_s?: number, 
/**
 * The calls in order, in at most [`super::limits::TraceLimits::slices`]
 * slices of `slice_calls` calls each.
 */
over_time: Array<Slice>, slice_calls: number, 
/**
 * What the replay has of it.
 */
sequence: Sequence, 
/**
 * Largest size a call returned.
 */
max_returned: number, 
/**
 * `buflab real` runs only.
 */
real?: RealFigures, 
/**
 * What the log shows about the source, in a sentence (the catalog's
 * words, filled in by `crate::api`).
 */
about: string, 
/**
 * Its name in words: "fd 3 (2nd opening) data.bin · pid 12" (the
 * catalog's, filled in by `crate::api`).
 */
label: string, };

/**
 * What an embedded page shows (the `embed` link key): the page without its
 * masthead, settings and panels, for a slide or a blog post. It changes only
 * how the page looks, never a result.
 */
export type Embed = "reads" | "time" | "copied" | "allocs" | "sweep" | "write" | "reallocs" | "timeline";

/**
 * How the application finishes writing to a sink that refuses the last byte.
 */
export type Ending = "direct" | "dropped" | "flush" | "into_inner";

export type EndingInfo = { id: Ending, label: string, about: string, };

/**
 * What the application learned when the sink refused the last byte.
 */
export type FinalFlush = { ending: Ending, 
/**
 * The call that returned the error to the application (`write_all`,
 * `flush`, `into_inner`); `None` when the error was lost.
 */
reported_by: string | null, 
/**
 * The error's message as the application saw it.
 */
error: string | null, 
/**
 * Bytes the sink accepted.
 */
bytes_at_sink: number, 
/**
 * Bytes the application handed over that never reached the sink.
 */
bytes_lost: number, 
/**
 * `write` calls on the sink, the refused ones included.
 */
sink_writes: number, };

/**
 * How the nearest link's model was chosen.
 */
export type FitReason = "whole_requests" | "one_size" | "pipe_sized" | "size_range";

/**
 * One reader's source reads: the replay's and the nearest link's.
 */
export type FitRun = { reader: ReaderKind, replay: number, 
/**
 * The link's count, as it runs (for the link's `len`).
 */
link: number, 
/**
 * `link × scale / replay`: 1 is an exact fit.
 */
ratio: number, };

/**
 * The cursor flavours a person can compare (the `wf` link key).
 */
export type Flavour = "cursor_vec" | "cursor_mut_vec" | "writer_vec" | "bytes_mut" | "cursor_mut_slice" | "cursor_box" | "mut_slice";

/**
 * What the page and the CLI say about a flavour. The qualities are seed
 * 004's; `tests/writers.rs` checks each one against the real type.
 */
export type FlavourInfo = { id: Flavour, 
/**
 * The Rust type, as written in code.
 */
label: string, about: string, 
/**
 * Several handles can share one allocation (an internal reference count).
 */
refcounted: boolean, 
/**
 * Writing past the end grows the buffer instead of failing.
 */
growable: boolean, seekable: Seekable, 
/**
 * The write-cursor article's published time to serialize 2048 16-byte records into
 * 32 KiB (Criterion, the author's laptop), in µs. A published figure,
 * not a measurement of ours.
 */
seed_us: number, };

/**
 * One cursor flavour's result.
 */
export type FlavourRun = { flavour: Flavour, 
/**
 * Bytes in the buffer at the end (or when the error came).
 */
bytes: number, 
/**
 * Hash of the bytes written; `None` when the run failed.
 */
digest: string | null, 
/**
 * Why the run stopped early (a fixed buffer too small: `WriteZero`).
 */
error: WriteFailure | null, 
/**
 * Measured time of one run; `None` when the run failed (not timed).
 */
cpu_ns: Stats | null, 
/**
 * `alloc` calls, plus `realloc` calls that moved or grew a block.
 */
allocations: number, frees: number, 
/**
 * Bytes requested by those allocations.
 */
alloc_bytes: number, 
/**
 * Highest live heap bytes above the level at the start of the run.
 */
peak_bytes: number, 
/**
 * `realloc` calls, growing or shrinking (a growing one is also counted in
 * `allocations`). A growable buffer that starts too small shows here.
 */
reallocs: number, };

/**
 * What the kernel holds for a reader whose source lives in time, after one
 * operation: pieces that have arrived and wait to be read.
 */
export type Kernel = { 
/**
 * Bytes arrived and not yet read.
 */
bytes: number, 
/**
 * Pieces with bytes arrived and not yet read.
 */
pieces: number, 
/**
 * The reader's modelled clock, in ns since the stream began.
 */
clock_ns: number, 
/**
 * This operation's source reads that found nothing and waited for the next piece.
 */
waits: number, 
/**
 * This operation's source reads that returned bytes of more than one piece.
 */
joined: number, };

/**
 * Where a bigger value stops paying, for one reader and one metric.
 */
export type Knee = { reader: ReaderKind, metric: Metric, 
/**
 * The knee's axis value.
 */
value: number, 
/**
 * The metric at the knee.
 */
at_knee: number, 
/**
 * The sweep's best (smallest) value of the metric.
 */
best: number, 
/**
 * True when the knee is the first point: no bigger value in the range
 * pays at all.
 */
first: boolean, 
/**
 * In a two-axis sweep, the second axis' value this knee (along the
 * first axis) is found at: one knee per column of the grid.
 */
across?: number, };

/**
 * One knee of a sweep comparison: A's knee and B's for one reader and
 * metric (and, on two axes, one column), and what can be said of them.
 */
export type KneePair = { reader: ReaderKind, metric: Metric, across?: number, 
/**
 * A's knee (its axis value); `None` where A's curve has none (a time
 * curve that zig-zags, a reader A does not run).
 */
a: number | null, 
/**
 * B's knee.
 */
b: number | null, 
/**
 * B's knee ÷ A's, where both have one.
 */
ratio: number | null, 
/**
 * For counts (exact): `tie`, or `less` / `more` where B's knee lies at
 * a smaller / larger value. For time: `same` within noise unless the
 * side whose knee lies further along clearly gains between the two
 * knees (every sample more than the knee tolerance apart, the rule the
 * time knee itself is found by) and its time relative to the other
 * side's falls there beyond the factor of separate measurements (3×):
 * then `less` / `more`. `not_compared` where a side has no knee or the
 * sweeps run along different axes.
 */
outcome: Outcome, 
/**
 * The comparison in words: "A's knee: 4 KiB; B's knee: 64 KiB …".
 */
says: string, };

/**
 * The two halves of BufLab.
 */
export type Lab = "read" | "write";

export type LabInfo = { id: Lab, label: string, about: string, 
/**
 * Whether the page's counting module (the engine built without default
 * features, web/pkg-counts, which gives the first numbers) runs this
 * lab. A lab it leaves out for size (the `write-lab` feature) gets its
 * first counts from the program build, which then loads at once.
 */
counting_module: boolean, 
/**
 * The result views the lab offers, the one a link opens without `view`
 * first; a link's `view` outside them shows the first.
 */
views: Array<View>, };

/**
 * The report of whichever lab the params select. Serialized without a
 * wrapper; the `lab` field tells them apart.
 */
export type LabReport = Report | WriteReport;

/**
 * An inclusive range of lengths (line lengths, frame payload lengths).
 */
export type LenRange = { min: number, max: number, };

/**
 * One lesson, as the page's panel and the README show it.
 */
export type Lesson = { id: LessonId, 
/**
 * The source article the experiment comes from, by its number ("000";
 * the page's About panel credits each), or "sweep".
 */
seed: string, title: string, 
/**
 * The link fragment, with its leading `#`, that loads the lesson.
 */
link: string, 
/**
 * What the experiment is and why it is set up this way.
 */
explanation: string, 
/**
 * Which world its source lives in ([`World`]).
 */
world: World, 
/**
 * That world in a sentence: what the source stands for and why it is
 * in that world.
 */
world_note: string, 
/**
 * What to look at in the results (2–3 points).
 */
notice: Array<string>, 
/**
 * The claim the lesson makes, in words; `tests/lessons.rs` asserts it on
 * the link's real result.
 */
claim: string, 
/**
 * What the page asks before it shows the results (link key `predict`).
 */
question: Question, 
/**
 * The charts the lesson's point is about (by their `embed` ids): the
 * page shows them first, so they are on the first screen in presenter mode.
 */
charts: Array<Embed>, 
/**
 * The changes the lesson's points suggest, each as the link it leads to:
 * a person who follows one has not left the lesson (the page names the
 * suggestion instead of calling the settings changed).
 */
suggestions: Array<Suggestion>, 
/**
 * The shipped strace log (in `public/traces/`) the lesson opens in the
 * page's trace panel; its link is that log's nearest experiment
 * (`tests/lessons.rs` checks it against the engine's fit).
 */
log?: string, };

/**
 * The four choices of one lesson's question, in the order the page letters them.
 */
export type LessonChoices = { lesson: LessonId, choices: Array<Choice>, };

/**
 * A lesson's id: the value of the `lesson` link key.
 */
export type LessonId = "one-byte" | "no-help" | "async-bufreader" | "bytes-vs-to-end" | "chained-worst" | "cursors" | "fast-sender" | "buffer-size" | "knee-grid" | "buffer-timeline" | "own-log";

/**
 * The letter of one of a question's four choices, as the room's printed
 * cards carry them (A on a card's top edge, then B, C and D clockwise:
 * web/src/shared/cards.ts); the page's `Letter` type is generated from it.
 */
export type Letter = "A" | "B" | "C" | "D";

/**
 * Every numeric limit, in one place.
 */
export type Limits = { 
/**
 * Stream length in bytes.
 */
len: Bounds, 
/**
 * Buffer capacity / block length in bytes.
 */
cap: Bounds, 
/**
 * Application read size in bytes.
 */
rs: Bounds, 
/**
 * Chunk sizes of the chunk models in bytes.
 */
chunk: Bounds, 
/**
 * Modelled cost of one source read in ns.
 */
sys: Bounds, 
/**
 * Modelled cost per KiB a source read returns, in ns.
 */
sys_kib: Bounds, 
/**
 * Arrival rate of the source's pieces in bytes per second, when set
 * (0 turns arrival in time off). At least 1 KiB/s, so the longest
 * stream arrives within a day of modelled time.
 */
rate: Bounds, 
/**
 * Modelled ns the application spends per piece of data it receives.
 */
work: Bounds, 
/**
 * Percentage of source reads an async reader finds not yet ready
 * (`Pending` first). Up to 100: the source answers `Pending` at most
 * once before each read, so even 100 % only adds one poll per source
 * read and no link can keep a reader polling forever.
 */
pend: Bounds, 
/**
 * PRNG seed; at most 2^53 − 1 so JavaScript numbers hold it exactly.
 */
seed: Bounds, 
/**
 * Write lab: records serialized per run.
 */
records: Bounds, 
/**
 * Write lab: initial capacity of the growable cursors in bytes.
 */
init_cap: Bounds, 
/**
 * Write lab: length of the fixed cursors' buffer in bytes.
 */
buf: Bounds, 
/**
 * Write lab: bytes written to the sink.
 */
wlen: Bounds, 
/**
 * Write lab: application write size in bytes.
 */
ws: Bounds, 
/**
 * Write lab: `BufWriter` capacity in bytes.
 */
wcap: Bounds, 
/**
 * Independent streams read round-robin (see also [`MAX_JOB_BYTES`]).
 */
streams: Bounds, 
/**
 * `lines` workload: line lengths in bytes, newline excluded.
 */
line: Bounds, 
/**
 * `frames` workload: payload lengths in bytes.
 */
frame: Bounds, 
/**
 * `scan` workload: position of the NUL byte (at or past the end: none).
 */
nul: Bounds, 
/**
 * The buffer timeline's step on screen, from 1 to the operations it
 * records ([`TIMELINE_OPS`]).
 */
step: Bounds, 
/**
 * The quiz's seed (`qseed`): which reader each question asks about and
 * the order of its choices; as `seed`, at most 2^53 − 1.
 */
qseed: Bounds, };

/**
 * The BufLab link nearest to a descriptor's pattern, and how near.
 */
export type LinkFit = { reason: FitReason, params: Params, 
/**
 * The link (filled in by `crate::api`; the engine does not know the codec).
 */
link: string, 
/**
 * The descriptor's bytes over the link's `len` (the link's counts are
 * multiplied by it before they are compared): 1 unless the bytes fall
 * outside the links' length limits.
 */
scale: number, runs: Array<FitRun>, 
/**
 * The fit in a sentence (the catalog's words, filled in by `crate::api`).
 */
about: string, };

/**
 * The links of one set of params, as the page keeps them.
 */
export type Links = { 
/**
 * The address bar's link: a sweep's keys only in the sweep view, so a
 * link reproduces what the view shows.
 */
link: string, 
/**
 * The link a single run is measured with: never a sweep's keys, so a
 * run's report, exports and native command never carry a sweep.
 */
run: string, 
/**
 * The link the sweep is run with (`None` without a sweep).
 */
sweep: string | null, 
/**
 * The view the page shows ([`View::shown`]).
 */
view: View, };

/**
 * What the input turned out to be.
 */
export type LogKind = "strace" | "real" | "empty" | "unknown";

/**
 * How the log was recorded, as far as its lines show.
 */
export type LogShape = { 
/**
 * Lines start with a process id (`strace -f`).
 */
pids: boolean, 
/**
 * Lines carry a time (`-t`, `-tt`, `-ttt` or `-r`).
 */
timestamps: boolean, 
/**
 * Calls end with the time spent in them (`-T`).
 */
durations: boolean, 
/**
 * Descriptors carry the path they refer to (`-y`: `read(3</etc/hosts>, …`).
 */
paths: boolean, 
/**
 * The log ends with strace's own count of the calls (`-c` or `-C`).
 */
summary: boolean, };

/**
 * Where a result was measured, as far as the place can tell: what a
 * colleague needs to read its times. Counts never depend on it.
 */
export type Machine = { kind: MachineKind, 
/**
 * The browser's `navigator.userAgent`; `None` natively.
 */
user_agent: string | null, 
/**
 * Natively, the operating system and architecture (`linux x86_64`);
 * a browser says it in its user agent, if at all.
 */
os: string | null, 
/**
 * The CPU's model name (natively from /proc/cpuinfo); browsers do not tell.
 */
cpu: string | null, 
/**
 * Logical cores (`available_parallelism`, `navigator.hardwareConcurrency`).
 */
cores: number | null, 
/**
 * Cross-origin isolated (a browser's fine timer); always true natively.
 */
isolated: boolean, 
/**
 * The smallest step the clock was seen to take, in ns.
 */
timer_step_ns: number, 
/**
 * The build that measured: BufLab's version, native or wasm32, and
 * release or debug (`buflab 0.1.0, wasm32, release`).
 */
build: string, };

/**
 * What kind of place a result was measured in.
 */
export type MachineKind = "native" | "browser";

/**
 * What a knee is measured on.
 */
export type Metric = "source_reads" | "bytes_copied" | "allocations" | "time";

/**
 * A number the page shows for one run of either lab.
 */
export type MetricId = "source_reads" | "app_reads" | "polls" | "bytes" | "bytes_copied" | "allocations" | "reallocs" | "peak_bytes" | "pool_blocks" | "cpu_median_ns" | "modelled_io_ns" | "modelled_total_ns" | "digest" | "app_writes" | "sink_writes" | "sink_flushes";

/**
 * What the page says about one metric.
 */
export type MetricInfo = { id: MetricId, 
/**
 * Column heading and chart title: "Source reads".
 */
label: string, 
/**
 * The label inside a sentence or on an axis: "source reads".
 */
short: string, unit: Unit, origin: Origin, 
/**
 * What it counts, one or two sentences (a heading's tooltip).
 */
about: string, 
/**
 * How the value depends on the machine it was taken on, where it does.
 */
platform: string | null, 
/**
 * The sweep metric this is, when sweeps find knees on it.
 */
knee: Metric | null, 
/**
 * The glossary entry that says what it means: its chart's title links there.
 */
term: TermId | null, };

/**
 * Descriptors past [`super::limits::TraceLimits::descriptors`]: only their
 * totals are kept.
 */
export type MoreDescriptors = { descriptors: number, calls: number, bytes: number, };

/**
 * Where a descriptor's name comes from.
 */
export type NamedBy = "open" | "annotation" | "call" | "real" | "nothing";

/**
 * A name and how many times it was seen (a system call, an error).
 */
export type NamedCount = { name: string, count: number, };

/**
 * A replaced or ignored link value, shown on the page.
 */
export type Notice = { 
/**
 * The link key concerned ("link" for the fragment as a whole).
 */
key: string, message: string, };

/**
 * One application operation and what it caused.
 */
export type Op = { kind: OpKind, 
/**
 * Bytes asked for; `None` when the call takes what there is (a line, a
 * scan of the buffer, `read_to_end`).
 */
requested: number | null, 
/**
 * Bytes the application received.
 */
returned: number, 
/**
 * Offset in the stream of the first byte received.
 */
at: number, 
/**
 * The first bytes received (a few).
 */
head: Array<number>, 
/**
 * Calls on the reader this operation made (an unbuffered line makes one
 * per byte).
 */
calls: number, 
/**
 * Source reads this operation caused, and the bytes they returned.
 */
source_reads: number, source_bytes: number, 
/**
 * The first few of them.
 */
reads: Array<SourceRead>, 
/**
 * Bytes the reader copied between buffers.
 */
copied: number, 
/**
 * Bytes the source wrote straight into the application's memory.
 */
direct: number, 
/**
 * A buffered reader let the source write past its buffer into the
 * application's memory (std's large-read path).
 */
bypass: boolean, 
/**
 * The call failed with `Interrupted` (an empty chunk) and is retried.
 */
interrupted: boolean, 
/**
 * Pieces handed to the application: the chained reader lends slices of
 * its blocks; std copies into the caller's buffer (no block).
 */
pieces: Array<Piece>, piece_count: number, 
/**
 * The buffer after the operation.
 */
buffer: Array<Span>, 
/**
 * Bytes buffered after the operation (sum of the spans).
 */
buffered: number, 
/**
 * The operation in one line of plain words (the page's caption, the
 * CLI's `--timeline` line).
 */
caption: string, 
/**
 * A source that lives in time (link key `rate`): what the kernel holds
 * after the operation, at the reader's clock. Absent without a rate.
 */
kernel?: Kernel, };

/**
 * What the application called.
 */
export type OpKind = "read" | "read_exact" | "next_byte" | "read_to_end" | "line" | "frame_header" | "frame_payload" | "scan";

/**
 * Where a metric's value comes from, which says how far to trust a difference.
 */
export type Origin = "exact" | "measured" | "modelled";

/**
 * What a comparison says of one metric, B against A.
 */
export type Outcome = "tie" | "less" | "more" | "faster" | "slower" | "same" | "not_compared";

/**
 * A reader of A against a reader of B: the same reader where both run it,
 * otherwise the ones left over, in order (`rd=std` against `b.rd=chained`).
 */
export type PairedRun = { 
/**
 * A's reader; `None`: B's reader has no counterpart in A.
 */
a: ReaderKind | null, b: ReaderKind | null, 
/**
 * One entry per metric, in the table's order; empty for an unpaired reader.
 */
metrics: Array<Compared>, };

/**
 * One whole experiment. Unknown fields are ignored, as unknown link keys
 * are (serde-wasm-bindgen reads only declared fields, and native JSON
 * behaves the same way).
 */
export type Params = { 
/**
 * Stream length in bytes.
 */
len: number, chunk: ChunkModel, 
/**
 * Seed of the chunk sizes and of the stream's content.
 */
seed: number, 
/**
 * Buffer capacity (the chained reader's block length) in bytes.
 */
cap: number, 
/**
 * Application read size in bytes.
 */
rs: number, 
/**
 * Modelled ns per source read.
 */
sys: number, 
/**
 * Modelled ns per KiB a source read returns, on top of `sys`: a real
 * `read(2)` copies every byte it returns, so a large read costs more.
 */
sys_kib: number, 
/**
 * Bytes per second at which the source's pieces arrive (the writer's
 * pace); 0: no arrival in time, each read gets one fresh piece (a
 * reader that is always waiting). See `engine::source::Arrival`.
 */
rate: number, 
/**
 * Modelled ns the application spends on each piece of data it receives
 * (parsing, computing), between its reads. It advances the reader's
 * clock against `rate`; `buflab real` spends it for real.
 */
work: number, 
/**
 * Percentage of source reads before which the source is not yet ready:
 * an async reader's first poll gets `Pending`, the next one the chunk.
 * Seeded from `seed`; blocking readers never see it (their read waits).
 */
pend: number, 
/**
 * Where `sys` came from: set by hand, or calibrated on a real source.
 */
sys_source: SysSource, 
/**
 * Readers compared, in the order shown; no repeats.
 */
readers: Array<ReaderKind>, workload: Workload, 
/**
 * Independent sources, each with its own reader, read round-robin.
 */
streams: number, 
/**
 * The chained reader's block pool: consumed blocks are handed out again.
 */
pool: boolean, 
/**
 * `frames`, std and unbuffered readers: one reused payload buffer instead
 * of a new `Vec` per frame.
 */
reuse: boolean, 
/**
 * `lines`: line lengths, newline excluded.
 */
line: LenRange, 
/**
 * `frames`: payload lengths.
 */
frame: LenRange, 
/**
 * `scan`: position of the one NUL byte; at or past the end, there is none.
 */
nul: number, 
/**
 * Which lab the page shows and a run runs.
 */
lab: Lab, 
/**
 * The write lab's settings (carried whichever lab is shown).
 */
write: WriteParams, 
/**
 * The lesson this experiment was opened from, if any. It only selects
 * the lesson on the page; runs ignore it.
 */
lesson: LessonId | null, 
/**
 * Presenter mode: large type, high contrast, secondary panels hidden.
 * Changes only how the page looks, never a result.
 */
present: boolean, 
/**
 * Predict, then reveal: the page hides the lesson's answer until the
 * person asks for it. Changes only how the page looks, never a result.
 */
predict: boolean, 
/**
 * The quiz the engine writes from this experiment's results
 * (`catalog::quiz`). Changes only what the page shows, never a result.
 */
quiz: boolean, 
/**
 * The quiz's seed: the same seed, the same quiz, in every browser and
 * the CLI. Apart from `seed` (the data's), so a room can get a new quiz
 * on the same results. Never changes a result.
 */
qseed: number, 
/**
 * A sweep over one or two axes; `None`: no sweep.
 */
sweep: Sweep | null, 
/**
 * The result view the page shows. Changes only how the page looks,
 * never a result.
 */
view: View, 
/**
 * The buffer timeline's step on screen, from 1 (the page shows the
 * trace's last step when it has fewer). Changes only how the page
 * looks, never a result.
 */
step: number, 
/**
 * Embedded: only these charts, a headline and a link to the full page;
 * empty: the whole page. Changes only how the page looks.
 */
embed: Array<Embed>, };

/**
 * A piece of data handed to the application.
 */
export type Piece = { len: number, 
/**
 * Lent from this block at `offset`; `None`: the application's memory.
 */
block: number | null, offset: number, };

/**
 * The Code panel's program in the Rust Playground.
 */
export type Playground = { 
/**
 * The self-contained program (it makes the link's bytes itself);
 * `None` where the link has none (`reason` says why).
 */
program: string | null, 
/**
 * The Playground's address with the program in it; `None` where there
 * is no program or the address would be too long.
 */
url: string | null, 
/**
 * Why there is no `url`, in a sentence.
 */
reason: string | null, };

/**
 * A named network chunking from the Monibuca article's benchmark.
 */
export type Preset = { id: string, min: number, max: number, about: string, };

/**
 * A question with a numeric answer taken from the lesson's real result
 * (predict, then reveal). `tests/lessons.rs` reads the answer off the
 * link's result and checks that `why` quotes it.
 */
export type Question = { 
/**
 * The question, asked before the results show.
 */
text: string, 
/**
 * Where the answer is in the result.
 */
answer: Answer, 
/**
 * What the answer counts, written after the number ("source reads").
 */
unit: string, 
/**
 * The answer explained in words, the number quoted as the page formats it.
 */
why: string, };

/**
 * A quiz about one link's experiment.
 */
export type Quiz = { 
/**
 * The quiz's seed (the link's `qseed`).
 */
qseed: number, questions: Array<QuizQuestion>, 
/**
 * Why the quiz has no questions, in words (`None` when it has some).
 */
note: string | null, };

/**
 * What a question asks about.
 */
export type QuizKind = "reads" | "fewer" | "knee" | "double";

/**
 * One question, its choices, its answer and why.
 */
export type QuizQuestion = { kind: QuizKind, text: string, 
/**
 * The choices as the page shows them (A, B, C, D in this order).
 */
choices: Array<string>, 
/**
 * The index of the right choice in `choices`.
 */
answer: number, 
/**
 * What each choice is, in the order of `choices`: for a count, the run
 * that makes it ("unbuffered Read: no buffer"), so a wrong pick is
 * explained (`catalog::choices`, as a lesson's cards are).
 */
whats: Array<string>, 
/**
 * The answer explained, the run's figures quoted.
 */
why: string, 
/**
 * The BufLab link (a fragment with its `#`) to the run or sweep that shows why.
 */
link: string, 
/**
 * The reader asked about.
 */
reader: ReaderKind, 
/**
 * The figure the answer rests on: a count of source reads (`reads`,
 * `double`), the knee's axis value (`knee`), or for `fewer` the index
 * of the reader with fewer reads in `[first, second]` (2: the same).
 */
value: number, };

/**
 * How many times one measured time is another, as far as the samples say:
 * every ratio between a sample of one and a sample of the other lies in
 * `low..=high`.
 */
export type Ratio = { 
/**
 * The other's fastest sample over this one's slowest: the least the samples allow.
 */
low: number, 
/**
 * The medians' ratio.
 */
median: number, 
/**
 * The other's slowest sample over this one's fastest: the most the samples allow.
 */
high: number, };

/**
 * Sizes of the read calls that returned data (the final call that returned
 * 0 is left out: it would make every minimum 0).
 */
export type ReadSizes = { min: number, median: number, max: number, };

/**
 * A [`Difference`] with the reader it belongs to, as the schema lists them.
 */
export type ReaderDifference = { reader: ReaderKind, workload: Workload, text: string, };

/**
 * What the page and the CLI say about a reader.
 */
export type ReaderInfo = { id: ReaderKind, label: string, about: string, 
/**
 * The link keys (= `Params` fields) that configure this reader; the
 * page shows those settings only while such a reader is chosen.
 */
keys: Array<string>, 
/**
 * What its buffer looks like (the buffer timeline draws it so).
 */
shape: Shape, };

/**
 * The readers a person can compare (the `rd` link key).
 */
export type ReaderKind = "unbuffered" | "std" | "chained" | "tokio" | "futures";

/**
 * A `buflab real` run as a descriptor: what it was and what its model said.
 */
export type RealFigures = { source: RealSource, reader: ReaderKind, counted_by: CallCounter, 
/**
 * Sizes of the calls that returned data (the report keeps no more).
 */
bytes_per_read: ReadSizes, 
/**
 * The simulated run's source reads for the same link.
 */
model_read_calls: number, model_chunk: ChunkModel, };

/**
 * A kind of real kernel source `buflab real` reads.
 */
export type RealSource = "file" | "pipe" | "tcp";

/**
 * What a buffer would have made of a descriptor's reads.
 */
export type Replay = { descriptor: number, 
/**
 * The runs asked for: unbuffered first, then each buffered reader at
 * each capacity.
 */
runs: Array<ReplayRun>, sequence: Sequence, 
/**
 * Pieces the source delivered: stretches of bytes that end where a
 * read came back short or at an end of file.
 */
pieces: number, 
/**
 * Most bytes a single read may get from this source: a pipe's
 * 64 KiB (or its largest read in the log, if larger); `None`: what
 * is asked.
 */
read_limit?: number, 
/**
 * Calls that asked for more than
 * [`super::limits::TraceLimits::replay_ask`]: replayed as asks of that size.
 */
asks_cut: number, sweep?: ReplaySweep, fit?: LinkFit, 
/**
 * The replay in a sentence (the catalog's words, filled in by `crate::api`).
 */
headline: string, };

/**
 * What to replay.
 */
export type ReplayOptions = { 
/**
 * Capacities for std's `BufReader` and the chained reader.
 */
caps: Array<number>, 
/**
 * Buffered readers to replay through (unbuffered is always replayed).
 */
readers: Array<ReaderKind>, 
/**
 * Also sweep the capacities of [`super::limits::TraceLimits::sweep_caps`].
 */
sweep: boolean, 
/**
 * Also find the nearest link (at the first of `caps`).
 */
fit: boolean, };

/**
 * One reader over a descriptor's replay.
 */
export type ReplayRun = { reader: ReaderKind, 
/**
 * Buffer capacity (block length for the chained reader); `None`
 * unbuffered.
 */
cap?: number, 
/**
 * Calls on the source, the stand-in for the system calls the program
 * would have made.
 */
source_reads: number, 
/**
 * Calls the program made on the reader.
 */
app_reads: number, 
/**
 * Bytes the program received.
 */
bytes: number, 
/**
 * Bytes moved between buffers inside the reader.
 */
bytes_copied: number, 
/**
 * The chained reader's blocks.
 */
blocks?: BlockCounts, };

/**
 * A capacity's replay for each buffered reader, in a sweep.
 */
export type ReplaySeries = { reader: ReaderKind, 
/**
 * One per capacity of [`ReplaySweep::caps`].
 */
source_reads: Array<number>, bytes_copied: Array<number>, 
/**
 * Where a bigger capacity stops paying in source reads (the smallest
 * capacity within 5 % of the sweep's best, as every BufLab sweep says).
 */
knee?: number, };

/**
 * The replay at every power-of-two capacity of a range.
 */
export type ReplaySweep = { caps: Array<number>, series: Array<ReplaySeries>, 
/**
 * The unbuffered replay's source reads, for scale.
 */
unbuffered: number, };

/**
 * The read lab's result.
 */
export type Report = { params: Params, runs: Array<Run>, timer: Timer, 
/**
 * True for a quick estimate (one short sample while a control moves).
 */
quick: boolean, 
/**
 * How far the timing has come: counts only, a quick estimate, or the
 * full measurement.
 */
stage: Stage, 
/**
 * Digest of what the application must receive, computed from the plain
 * byte slice without any reader (the whole stream for most workloads,
 * the payloads for `frames`, the bytes before the NUL for `scan`; with
 * several streams, combined over them): every run's digest must equal it.
 */
source_digest: string, 
/**
 * The canonical link fragment that reproduces this report.
 */
link: string, 
/**
 * Always `read`: tells a read report from a [`WriteReport`].
 */
lab: "read", 
/**
 * The time to copy the stream's bytes once (`len` × `streams`, one
 * `copy_from_slice` into a buffer of that length), sampled as the
 * readers are, in the same run: the floor that any reader's time
 * stands on, here. Absent without timing.
 */
copy_ns?: Stats, 
/**
 * Where it was measured. Absent in reports the engine has not yet
 * handed out (the glue and the command line fill it in).
 */
machine?: Machine, 
/**
 * [`REPORT_FORMAT`] of the build that wrote it; absent: 1.
 */
format?: number, };

/**
 * A result file that could not be read, and why, in words.
 */
export type ResultError = { kind: ResultErrorKind, message: string, };

/**
 * Why a result file could not be read.
 */
export type ResultErrorKind = "too_large" | "not_json" | "truncated" | "not_buf_lab" | "other_kind" | "newer" | "invalid";

/**
 * One reader's result.
 */
export type Run = { reader: ReaderKind, 
/**
 * Calls on the source (stand-ins for system calls), the final 0 included.
 */
source_reads: number, 
/**
 * Calls the application made on the reader.
 */
app_reads: number, 
/**
 * Bytes the application received.
 */
bytes: number, 
/**
 * Bytes moved between buffers inside the reader.
 */
bytes_copied: number, 
/**
 * Hash of the bytes the application received.
 */
digest: string, 
/**
 * Measured time of one run.
 */
cpu_ns: Stats, 
/**
 * Modelled: `source_reads × params.sys + source_bytes × params.sys_kib
 * / 1024`. Not measured.
 */
modelled_io_ns: number, 
/**
 * Bytes the source reads returned, summed over the streams.
 */
source_bytes: number, 
/**
 * A source that lives in time (link key `rate`): how the reader met
 * the arriving pieces. Absent without a rate.
 */
arrival?: ArrivalCounts, 
/**
 * The chained reader's blocks: how many were allocated and how many
 * came from the pool instead. Absent for the other readers.
 */
blocks?: BlockCounts, 
/**
 * The async readers: polls of the futures the application awaited
 * (one per operation, plus one more after each `Pending`). Absent for
 * the blocking readers.
 */
polls?: number, 
/**
 * The async readers: polls answered `Pending` (the source was not yet
 * ready, link key `pend`, or a read found an empty chunk). Each costs a
 * poll, never a source read. Absent for the blocking readers.
 */
pendings?: number, 
/**
 * The buffer timeline: the first application operations of stream 1,
 * recorded in a separate untimed pass.
 */
timeline?: Timeline, 
/**
 * The CPU median as a multiple of the report's copy floor
 * ([`Report::copy_ns`]): "× copy", a time that carries roughly across
 * machines. Absent without timing.
 */
cpu_x_copy?: number, 
/**
 * `alloc` calls, plus `realloc` calls that moved or grew a block.
 */
allocations: number, frees: number, 
/**
 * Bytes requested by those allocations.
 */
alloc_bytes: number, 
/**
 * Highest live heap bytes above the level at the start of the run.
 */
peak_bytes: number, 
/**
 * `realloc` calls, growing or shrinking (a growing one is also counted in
 * `allocations`). A growable buffer that starts too small shows here.
 */
reallocs: number, };

/**
 * What the page needs to build its controls: limits, defaults, choices.
 */
export type Schema = { version: number, defaults: Params, limits: Limits, readers: Array<ReaderInfo>, 
/**
 * Where a reader's algorithm differs from std's for a workload, one
 * sentence each (owned by the reader's module); the page shows those of
 * the readers and workload it ran.
 */
differences: Array<ReaderDifference>, workloads: Array<WorkloadInfo>, presets: Array<Preset>, max_link_bytes: number, 
/**
 * Link keys that change how the page looks or what it points at, never a
 * result.
 */
display_keys: Array<string>, 
/**
 * Link keys that describe a sweep: a single run's link leaves them out.
 */
sweep_keys: Array<string>, 
/**
 * The labs the page's switch offers.
 */
labs: Array<LabInfo>, 
/**
 * The read lab's result views, for the page's view tabs.
 */
views: Array<ViewInfo>, 
/**
 * The write lab's cursor flavours, with the article's qualities.
 */
flavours: Array<FlavourInfo>, 
/**
 * Why today's cursor times need not follow the article's order, shown
 * beside its table.
 */
article_order: string, 
/**
 * The sink experiment's two ways to write.
 */
write_modes: Array<WriteModeInfo>, 
/**
 * The final-flush demonstration's endings.
 */
endings: Array<EndingInfo>, 
/**
 * Encoded size of one record in the cursor experiment.
 */
record_bytes: number, 
/**
 * Stream length × streams and buffer capacity × streams are each at most this.
 */
max_job_bytes: number, 
/**
 * The axes a sweep can run along, with their power-of-two bounds.
 */
sweep_axes: Array<SweepAxisInfo>, 
/**
 * Most points one sweep may have.
 */
max_sweep_points: number, 
/**
 * How close to a sweep's best a point must be to count as its knee (0.05: within 5 %).
 */
knee_tolerance: number, 
/**
 * Where `sys` may come from (the `syssrc` link key), with the page's words.
 */
sys_sources: Array<SysSourceInfo>, 
/**
 * Every number the page shows per run: label, unit, origin, meaning.
 */
metrics: Array<MetricInfo>, 
/**
 * Both forms' settings: label, hint and unit per lab and link key.
 */
settings: Array<SettingInfo>, 
/**
 * What each kind of spread is, for the label beside every ± and range.
 */
spreads: Array<SpreadInfo>, 
/**
 * The rules a comparison's verdicts follow.
 */
compare: CompareInfo, 
/**
 * What reading a program's strace log keeps, whatever its length.
 */
trace: TraceLimits, };

/**
 * Whether earlier bytes can be reached again to be rewritten.
 */
export type Seekable = "seek" | "by_index" | "no";

/**
 * What the replay of a descriptor covers: the calls its request sequence
 * holds against all the calls it could have held.
 */
export type Sequence = { 
/**
 * Runs of equal (asked, returned) pairs stored.
 */
runs: number, 
/**
 * Calls and bytes in the stored runs.
 */
calls: number, bytes: number, 
/**
 * Calls and bytes the replay could use (reads that returned data or
 * end of file; not positional reads, not failed calls).
 */
of_calls: number, of_bytes: number, };

/**
 * One setting of one lab's form.
 */
export type SettingInfo = { lab: Lab, 
/**
 * The link key the setting writes.
 */
key: string, label: string, 
/**
 * The sentence under the field (empty where the field writes its own notes).
 */
hint: string, 
/**
 * The unit after a plain number's box ("ns"); sizes carry their own suffixes.
 */
unit: string | null, 
/**
 * How the form edits it.
 */
control: Control, 
/**
 * Where it lives in the params: a field of `Params`, or `write.` and a field of its `write`.
 */
field: string, 
/**
 * The values it may take (sizes, counts and ranges).
 */
bounds: Bounds | null, 
/**
 * The group behind "More settings" it sits in; none: the strip above the results.
 */
group: string | null, };

/**
 * What a reader keeps between the application's operations.
 */
export type Shape = "unbuffered" | "single" | "blocks";

/**
 * One way of writing to the sink.
 */
export type SinkRun = { mode: WriteMode, 
/**
 * `write_all` calls the application made.
 */
app_writes: number, 
/**
 * `write` calls on the sink (stand-ins for system calls).
 */
sink_writes: number, 
/**
 * `flush` calls on the sink.
 */
sink_flushes: number, 
/**
 * Bytes the sink accepted.
 */
bytes: number, 
/**
 * Bytes copied into the writer's buffer before reaching the sink.
 */
bytes_copied: number, 
/**
 * Hash of the bytes the sink received.
 */
digest: string, cpu_ns: Stats, 
/**
 * Modelled: `sink_writes × params.sys`. Not measured.
 */
modelled_io_ns: number, 
/**
 * `alloc` calls, plus `realloc` calls that moved or grew a block.
 */
allocations: number, frees: number, 
/**
 * Bytes requested by those allocations.
 */
alloc_bytes: number, 
/**
 * Highest live heap bytes above the level at the start of the run.
 */
peak_bytes: number, 
/**
 * `realloc` calls, growing or shrinking (a growing one is also counted in
 * `allocations`). A growable buffer that starts too small shows here.
 */
reallocs: number, };

/**
 * One exact size and how many calls had it.
 */
export type SizeCount = { size: number, count: number, };

/**
 * A histogram of sizes: power-of-two buckets (0, 1, 2–3, 4–7, …; empty
 * ones left out) and the exact sizes seen first, up to
 * [`super::limits::TraceLimits::exact_sizes`] of them, most frequent first.
 */
export type Sizes = { 
/**
 * Calls counted.
 */
calls: number, min: number, max: number, buckets: Array<Bucket>, exact: Array<SizeCount>, 
/**
 * Calls whose size is not in `exact` (sizes first seen after the list
 * was full).
 */
other: number, };

/**
 * Why a line was skipped.
 */
export type SkipReason = "not_strace" | "truncated" | "bad_arguments" | "orphan" | "too_long";

/**
 * Lines the reader did not use.
 */
export type Skipped = { lines: number, 
/**
 * The first few ([`super::limits::TraceLimits::quoted_lines`]).
 */
examples: Array<SkippedLine>, };

/**
 * One skipped line, quoted (shortened; never interpreted).
 */
export type SkippedLine = { 
/**
 * 1-based line number in the input.
 */
line: number, reason: SkipReason, 
/**
 * The line's first characters, as text (invalid UTF-8 replaced).
 */
text: string, 
/**
 * Why it was skipped, in words (the catalog's, filled in by `crate::api`).
 */
why: string, };

/**
 * Part of a descriptor's calls, in call order: the pattern over time.
 */
export type Slice = { 
/**
 * Index of the slice's first call among the descriptor's calls.
 */
first_call: number, calls: number, bytes: number, short_reads: number, eof: number, failed: number, 
/**
 * Smallest and largest size returned by a call that returned data (0
 * when none did).
 */
min_returned: number, max_returned: number, 
/**
 * Seconds from the log's first timestamp to the slice's first call
 * (logs with timestamps only).
 */
at_s?: number, };

/**
 * What a descriptor refers to, as far as the log says.
 */
export type SourceKind = "file" | "pipe" | "socket" | "device" | "other" | "unknown";

/**
 * One read call on the source.
 */
export type SourceRead = { requested: number, returned: number, 
/**
 * An empty chunk: the call failed with `Interrupted`.
 */
interrupted: boolean, 
/**
 * The block the bytes went into, at `offset`; `None`: the application's
 * own memory (unbuffered reads, bypasses, `read_to_end`).
 */
block: number | null, offset: number, };

/**
 * Unread bytes `start..end` of a block of `capacity` bytes. A single-buffer
 * reader has one block, id 0, its buffer; the chained reader's ids follow
 * block identity (a block back from the pool keeps its id; without the pool
 * a new block gets a new id).
 */
export type Span = { block: number, start: number, end: number, };

/**
 * A spread, with what it is.
 */
export type Spread = { kind: SpreadKind, low: number, high: number, };

/**
 * What a spread is, for a label beside it.
 */
export type SpreadInfo = { kind: SpreadKind, 
/**
 * A label short enough to stand beside the figure: "MAD".
 */
label: string, 
/**
 * What it is, in a sentence (a tooltip, a footnote).
 */
about: string, 
/**
 * The fields of every `Stats` (a report's times) that are this spread:
 * `mad` is the `±` beside a median, `min` and `max` its range.
 */
stats_fields: Array<string>, };

/**
 * What a spread is: every `±` and every range the page or the CLI shows
 * beside a figure names one of these.
 */
export type SpreadKind = "mad" | "range" | "ratio_interval" | "ratio_range";

/**
 * How far a report's timing has come. Counts are exact at every stage;
 * only the times get better.
 */
export type Stage = "counts" | "quick" | "full";

/**
 * Time per run over the samples, in ns.
 */
export type Stats = { min: number, median: number, max: number, 
/**
 * Median absolute deviation from the median.
 */
mad: number, samples: number, 
/**
 * Runs per sample.
 */
batch: number, 
/**
 * Samples further than 3 scaled MADs (1.4826 × MAD, the normal-equivalent
 * spread) from the median. Counted and shown, never dropped: they are
 * part of what was measured.
 */
outliers: number, };

/**
 * A change a lesson's points suggest, as the link it leads to.
 */
export type Suggestion = { 
/**
 * What changed, in words ("chunking poor, 64–512 bytes").
 */
text: string, 
/**
 * The lesson's link with that change (same `lesson`; canonical).
 */
link: string, };

/**
 * One row of strace's own count (`-c`/`-C`), as the log prints it.
 */
export type SummaryRow = { syscall: string, calls: number, errors: number, };

/**
 * A sweep: `axis` stepped through the powers of two from `from` to `to`;
 * with `across`, a two-axis sweep: at every value of `axis`, the second axis
 * stepped through its own range (a grid of points, `axis` down the rows).
 */
export type Sweep = { axis: SweepAxis, from: number, to: number, 
/**
 * The second axis of a two-axis sweep (the grid's columns).
 */
across?: Across, };

/**
 * What a sweep steps through. Serialized as its link id.
 */
export type SweepAxis = "cap" | "rs" | "chunk" | "len" | "streams" | "rate";

/**
 * One sweep axis, for the page's sweep controls.
 */
export type SweepAxisInfo = { id: SweepAxis, 
/**
 * The link key (= `Params` field) a point of this axis sets. The page
 * offers the axis only when the experiment uses that key, by the rule
 * that decides which settings it shows (a key a workload's or reader's
 * `keys` lists is used while that workload or reader is chosen).
 */
key: string, label: string, about: string, 
/**
 * The powers of two the axis may take (inside the limits).
 */
bounds: Bounds, 
/**
 * The range a sweep of this axis gets when the link gives none.
 */
from: number, to: number, 
/**
 * True when the axis is in bytes (shown with K/M suffixes).
 */
bytes: boolean, 
/**
 * What follows a value in words: "/s" for a rate in bytes per second, else nothing.
 */
per: string, 
/**
 * True when "where a bigger value stops paying" (the knee) means
 * something along this axis; a longer stream or more streams only
 * cost more.
 */
knee: boolean, };

/**
 * Two sweeps compared (a comparison link whose A has a sweep): both sweeps,
 * their points run in alternating order, and the knee of each side paired.
 */
export type SweepComparison = { a: SweepReport, b: SweepReport, 
/**
 * The canonical comparison link (A's link, then B's `b.` keys).
 */
link: string, 
/**
 * The settings that differ, in the key table's order.
 */
changed: Array<Changed>, 
/**
 * Per reader and metric (and column, on two axes), A's knee and B's.
 */
knees: Array<KneePair>, };

/**
 * One measured point of a sweep.
 */
export type SweepPoint = { 
/**
 * The axis value.
 */
value: number, 
/**
 * In a two-axis sweep, the second axis' value.
 */
across?: number, 
/**
 * The experiment's report at this value (its `params` have no sweep).
 */
report: Report, };

/**
 * A whole sweep: what the CLI's `--json` prints.
 */
export type SweepReport = { 
/**
 * The swept experiment, sweep included.
 */
params: Params, sweep: Sweep, 
/**
 * Every value of the (first) axis, ascending.
 */
values: Array<number>, 
/**
 * In a two-axis sweep, every value of the second axis, ascending
 * (empty for one axis).
 */
across_values: Array<number>, 
/**
 * How many points the sweep has (`values` × `across_values`); the points
 * done so far are a prefix of them, in the order of `Sweep::grid`.
 */
total: number, points: Array<SweepPoint>, 
/**
 * One per reader and metric, on axes where a knee means something.
 */
knees: Array<Knee>, 
/**
 * True when every point is done.
 */
complete: boolean, 
/**
 * True when every reader at every point delivered exactly the source's bytes.
 */
digests_agree: boolean, 
/**
 * The canonical link of the sweep.
 */
link: string, };

/**
 * Where `sys`, the cost of one source read, came from (the `syssrc` link
 * key). Only a label: a run uses `sys` as it is, whoever set it.
 */
export type SysSource = "manual" | "file" | "pipe" | "tcp" | "opfs";

/**
 * Where a `sys` value came from, as the page says it.
 */
export type SysSourceInfo = { id: SysSource, label: string, about: string, };

/**
 * One glossary entry, as the page shows it.
 */
export type Term = { id: TermId, 
/**
 * The entry's heading: "Source read".
 */
term: string, 
/**
 * How running text says it (matched whole-word, any case, the
 * longest first): the page links the first mention in a text to this
 * entry.
 */
phrases: Array<string>, 
/**
 * The metric whose sentence opens the definition (its `term` names this entry).
 */
metric: MetricId | null, 
/**
 * What it means, in a few sentences.
 */
definition: string, };

/**
 * A term the glossary defines: the id a page element links to.
 */
export type TermId = "source-read" | "app-read" | "copy" | "allocation" | "chunking" | "system-call" | "pending" | "digest" | "exact" | "measured" | "modelled" | "arrival" | "sweep" | "knee" | "buf-reader" | "capacity" | "read-size" | "bypass" | "chained" | "seed" | "outlier";

/**
 * One reader's first operations.
 */
export type Timeline = { 
/**
 * The reader's kind of buffer.
 */
shape: Shape, 
/**
 * The buffer's capacity (the chained reader: the block length); 0 for a
 * reader without a buffer.
 */
capacity: number, 
/**
 * The chained reader's block pool was on.
 */
pool: boolean, 
/**
 * The traced stream is stream 1 of this many (each has its own reader;
 * the trace follows the first alone).
 */
streams: number, ops: Array<Op>, 
/**
 * The application had more to do after the last recorded operation.
 */
truncated: boolean, 
/**
 * The error that ended the application's run early, if one did.
 */
error: string | null, };

export type Timer = { 
/**
 * The smallest step the clock was seen to take.
 */
resolution_ns: number, 
/**
 * Cross-origin isolated (fine timer) in a browser; always true natively.
 */
isolated: boolean, 
/**
 * Whether this step is coarse enough that a full measurement's samples
 * are lengthened to it, so measuring takes longer (the engine's rule,
 * `engine::clock::samples_lengthened`). Reports without it: false.
 */
samples_lengthened: boolean, };

/**
 * How the two sides' times were taken, and so what their comparison may claim.
 */
export type Timing = { "kind": "untimed" } | { "kind": "alternating", rounds: number, 
/**
 * The nominal confidence of the ratio's interval (0.95).
 */
confidence: number, 
/**
 * Its exact coverage with this many rounds (order statistics of
 * the median: at least `confidence`).
 */
coverage: number, 
/**
 * B is faster or slower only when the interval lies beyond 1 by
 * more than this fraction (below 1 ÷ (1 + margin), above 1 + margin).
 */
margin: number, } | { "kind": "separate", 
/**
 * Both name the same machine (kind, CPU or browser, cores, build).
 */
same_machine: boolean, 
/**
 * A time is faster or slower only when every ratio the two sides'
 * samples allow lies beyond this factor (B at most A ÷ factor, or
 * at least A × factor); in ns only on the same machine.
 */
factor: number, };

/**
 * What reading an `strace` log keeps, whatever its length: the log is
 * untrusted, so every table the reader grows has a bound here. Past a
 * bound the figures say so (a count of what was not kept), never silently.
 */
export type TraceLimits = { 
/**
 * Longest line kept, outside its quoted strings (a line that spans the
 * chunks it arrives in is gathered; each string keeps its first
 * `string_bytes`). Longer lines are skipped and counted.
 */
line_bytes: number, 
/**
 * Bytes kept of each quoted string of a gathered line: a path is at
 * most 4096 bytes (`PATH_MAX`); read data is never needed.
 */
string_bytes: number, 
/**
 * Characters of a path a descriptor keeps (the end of a longer one,
 * after "…").
 */
path_chars: number, 
/**
 * Skipped lines quoted, and the characters quoted of each.
 */
quoted_lines: number, quote_chars: number, 
/**
 * Descriptors with figures of their own; past these, totals only.
 */
descriptors: number, 
/**
 * Open descriptors followed, per process and number (past it, one is
 * forgotten for each new one, and counted).
 */
open_fds: number, 
/**
 * Processes (threads) told apart for the count of processes.
 */
pids: number, 
/**
 * Split calls waiting for their second half, and the bytes kept of each.
 */
pending: number, pending_bytes: number, 
/**
 * System call names counted by name, and error names per descriptor.
 */
syscall_names: number, error_names: number, 
/**
 * Exact sizes a histogram counts by size (besides its power-of-two buckets).
 */
exact_sizes: number, 
/**
 * Slices of a descriptor's calls over time.
 */
slices: number, 
/**
 * Runs of equal (asked, returned) pairs the replay keeps per
 * descriptor and in all (12 bytes each). A run holds any number of
 * equal calls, so a program that asks for the same size every time
 * needs a handful whatever its length; past the bound the replay
 * covers the calls before it, and says how many.
 */
runs_per_descriptor: number, runs_total: number, 
/**
 * Largest read the replay's program asks for; larger asks are
 * replayed as asks of this size, and counted.
 */
replay_ask: number, 
/**
 * Largest JSON input read (`buflab real --json`'s report).
 */
json_bytes: number, 
/**
 * Capacities a replay sweeps (powers of two).
 */
sweep_caps: Bounds, };

/**
 * How far reading has come, for a progress bar.
 */
export type TraceProgress = { bytes: number, lines: number, read_calls: number, descriptors: number, skipped: number, };

/**
 * A log read into figures.
 */
export type TraceReport = { kind: LogKind, 
/**
 * The whole input was read (false: cancelled, the figures are the
 * first `bytes` bytes').
 */
complete: boolean, 
/**
 * Input bytes and lines read.
 */
bytes: number, lines: number, shape: LogShape, 
/**
 * System calls understood (a split call counts once).
 */
calls: number, 
/**
 * Of which read calls, on any descriptor.
 */
read_calls: number, 
/**
 * Calls per system call, every call understood, most frequent first
 * (at most [`super::limits::TraceLimits::syscall_names`] names; the
 * rest in `other_syscalls`).
 */
syscalls: Array<NamedCount>, other_syscalls: number, 
/**
 * Processes (threads) seen, exact up to
 * [`super::limits::TraceLimits::pids`], then "at least".
 */
processes: number, signals: number, exits: number, unfinished: Unfinished, 
/**
 * Descriptors with at least one read call, in the order of their first.
 */
descriptors: Array<Descriptor>, more_descriptors: MoreDescriptors, 
/**
 * Open descriptors the reader stopped following, to keep within
 * [`super::limits::TraceLimits::open_fds`]: a later read on one of
 * them starts a new descriptor, named only if `-y` names it.
 */
forgotten_fds: number, skipped: Skipped, 
/**
 * strace's own count, where the log carries one (`-c`, `-C`).
 */
strace_summary: Array<SummaryRow>, 
/**
 * A `buflab real` report's link (its calibrated run).
 */
real_link?: string, 
/**
 * Why a JSON input could not be read as `buflab real`'s report.
 */
not_read?: string, };

/**
 * Calls `strace -f` split in two (`read(3, <unfinished ...>` and later
 * `<... read resumed>…`) because another thread's line came between.
 */
export type Unfinished = { 
/**
 * Halves joined into one call.
 */
joined: number, 
/**
 * Second halves without a first (the log starts after it, or the first
 * was dropped); counted as skipped lines.
 */
orphans: number, 
/**
 * First halves never resumed (the process exited or was killed, or
 * the log ends first).
 */
never_resumed: number, };

/**
 * What a metric's numbers count, for how the page writes them.
 */
export type Unit = "count" | "bytes" | "ns" | "text";

/**
 * How two measured times compare, claimed only beyond their noise.
 */
export type Verdict = "faster" | "slower" | "same";

/**
 * The result view the page shows (the `view` link key). It changes only
 * how the page looks, never a result.
 */
export type View = "run" | "sweep" | "timeline";

/**
 * A result view (the `view` link key), for the page's view tabs.
 */
export type ViewInfo = { id: View, label: string, about: string, };

/**
 * The workloads a person can pick (the `wl` link key).
 */
export type Workload = "fixed" | "exact" | "bytes" | "to_end" | "lines" | "frames" | "scan";

export type WorkloadInfo = { id: Workload, label: string, 
/**
 * What the workload models.
 */
about: string, 
/**
 * What to look for in the results.
 */
look: string, 
/**
 * The link keys (= `Params` fields) this workload reads, besides the
 * ones every workload uses; the page shows only these settings.
 */
keys: Array<string>, };

/**
 * Which of the two worlds a pipe or a socket can be in a lesson shows:
 * whether the reader waits for its data or the data waits for the reader.
 * Both are real (`buflab real` makes each on a real pipe and socket, with
 * its writer paced at the link's `rate`); which one a program lives in
 * depends on how fast the data arrives against how fast the program reads.
 */
export type World = "file" | "writer_ahead" | "reader_waiting" | "both" | "memory";

/**
 * How a cursor run that did not finish ended.
 */
export type WriteFailure = { 
/**
 * `io::ErrorKind` in Rust's spelling, e.g. `WriteZero`.
 */
kind: string, 
/**
 * The error's own message, e.g. "failed to write whole buffer".
 */
message: string, 
/**
 * Bytes in the buffer when the error came.
 */
bytes_written: number, };

/**
 * How the application reaches the sink.
 */
export type WriteMode = "direct" | "bufwriter";

export type WriteModeInfo = { id: WriteMode, label: string, about: string, };

/**
 * The write lab's settings.
 */
export type WriteParams = { 
/**
 * Records serialized per run.
 */
records: number, 
/**
 * Capacity the growable cursors start with, in bytes; 0 makes them grow
 * from nothing, reallocating on the way.
 */
init_cap: number, 
/**
 * Length of the fixed cursors' buffer in bytes; too small ends in a
 * `WriteZero` error.
 */
buf: number, 
/**
 * Cursor flavours compared, in the order shown; no repeats.
 */
flavours: Array<Flavour>, 
/**
 * Bytes the application writes to the sink.
 */
len: number, 
/**
 * Application write size in bytes.
 */
ws: number, 
/**
 * `BufWriter` capacity in bytes.
 */
cap: number, 
/**
 * Most bytes the sink accepts per write call; the shared `seed` draws
 * uniform sizes.
 */
sink: ChunkModel, };

/**
 * The write lab's result: the cursors, `BufWriter` over a chunked sink, and
 * the final-flush demonstration.
 */
export type WriteReport = { 
/**
 * Always `write`.
 */
lab: "write", params: Params, 
/**
 * One per chosen flavour, in the order asked for.
 */
flavours: Array<FlavourRun>, 
/**
 * Digest of the records encoded by hand (fixed-width big-endian): every
 * finished flavour's digest must equal it.
 */
reference_digest: string, 
/**
 * Bytes the records encode to (records × 16).
 */
reference_bytes: number, 
/**
 * Direct writes, then `BufWriter`.
 */
sink: Array<SinkRun>, 
/**
 * Digest of the data the application writes to the sink.
 */
sink_digest: string, 
/**
 * Where an error on the last write goes, per way of ending.
 */
final_flush: Array<FinalFlush>, timer: Timer, quick: boolean, 
/**
 * How far the timing has come (see [`Report::stage`]).
 */
stage: Stage, 
/**
 * The canonical link fragment that reproduces this report.
 */
link: string, };
