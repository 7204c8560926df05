//! The model: plain data at the bottom of the engine's layers. Ids,
//! [`Params`] with its defaults and limits, [`Report`] and everything a
//! report carries. It depends on std and serde only; every other layer
//! (`link`, `engine`, `catalog`, the glue, the CLI) builds on it, and it
//! never reaches up (`tests/layers.rs` checks).
//!
//! The page's TypeScript types are generated from these types
//! (`web/src/engine/types.gen.ts`; see `crate::types`).

pub mod chunk;
pub mod compare;
pub mod id;
pub mod limits;
pub mod params;
pub mod real;
pub mod report;
pub mod size;
pub mod sweep;
pub mod timeline;
pub mod trace;

pub use chunk::{ChunkModel, Preset, PIPE_CHUNK, PRESETS};
pub use compare::{Changed, Compared, Comparison, KneePair, Outcome, PairedRun, Spread, SpreadKind, SweepComparison, Timing, COMPARISON_KIND};
pub use id::Id;
pub use limits::{
    key, max_streams, Bounds, Limits, ParamError, LIMITS, MAX_JOB_BYTES, MAX_GRID_POINTS, MAX_REAL_STREAMS,
    MAX_SWEEP_POINTS, TIMELINE_OPS, TRACE,
};
pub use params::{
    Across, Embed, Flavour, Lab, LenRange, LessonId, Params, ReaderKind, Record, Sweep, SweepAxis, SysSource, View, Workload,
    WriteParams, RECORD_BYTES,
};
pub use real::{
    AllocCalls, Calibration, CalibratedFrom, CallCounter, CostFit, FitPoint, Lateness, ModelSide, ReadSizes, RealReport, RealRun, RealSource,
};
pub use report::{
    format_step, x_copy, AllocCounts, ArrivalCounts, BlockCounts, Ending, FinalFlush, FlavourRun, LabReport, Machine, MachineKind,
    MetricId, Ratio, Report, Run, SinkRun, Stage, Stats, Timer, Verdict, WriteFailure, WriteMode, WriteReport, REPORT_FORMAT,
};
pub use size::{format_size, parse_size, KIB, MIB};
pub use sweep::{Knee, Metric, SweepPoint, SweepReport};
pub use timeline::{Kernel, Op, OpKind, Piece, Shape, SourceRead, Span, Timeline};
pub use trace::{Descriptor, LogKind, Replay, ReplayOptions, ReplayRun, TraceProgress, TraceReport};
