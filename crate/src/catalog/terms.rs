//! The glossary's terms, by id: what a page element links to (a metric's
//! chart title, a word in a lesson or a headline). The glossary
//! (`glossary.rs`) says what each means and quotes the metric table; the
//! metric table names the term that explains each metric by its id here, so
//! the two import one way.

use serde::Serialize;

use crate::model::Id;

/// A term the glossary defines: the id a page element links to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum TermId {
    SourceRead,
    AppRead,
    Copy,
    Allocation,
    Chunking,
    SystemCall,
    Pending,
    Digest,
    Exact,
    Measured,
    Modelled,
    Arrival,
    Sweep,
    Knee,
    BufReader,
    Capacity,
    ReadSize,
    Bypass,
    Chained,
    Seed,
    Outlier,
}

impl Id for TermId {}
