//! `std::io::BufReader`: one large source read fills its buffer, small reads
//! are served from it, and reads at least as large as the buffer bypass it.
//! A black box here: its copies are observed from its source.

use std::io::{self, BufReader, Read};

use super::{Look, ReaderConfig, ReaderInfo, SnippetPart, Strategy};
use crate::engine::source::ObservedRead;
use crate::engine::workload::Buffered;
use crate::model::{key, Params, ReaderKind, Shape};

pub struct Std;

impl Strategy for Std {
    const INFO: ReaderInfo = ReaderInfo {
        id: ReaderKind::Std,
        label: "std BufReader",
        about: "std::io::BufReader fills its buffer with one large source read and hands out \
                copies of it; reads at least as large as the buffer bypass it.",
        keys: &[key::CAP],
        shape: Shape::Single,
    };
    const SNIPPET: SnippetPart =
        SnippetPart { imports: &["BufReader"], buffered: true, described_only: false, uses_cap: true };

    type Shared = ();
    type Reader<'s, S: ObservedRead + 's> = BufReader<S>;

    fn shared(_: ReaderConfig) -> io::Result<()> {
        Ok(())
    }

    fn build<'s, S: ObservedRead + 's>(_: &'s (), config: ReaderConfig, source: S) -> BufReader<S> {
        let mut reader = BufReader::with_capacity(config.cap, source);
        // Nothing is buffered yet, so `buffer()` starts at the buffer's first
        // byte; the buffer never moves (a boxed slice).
        let start = reader.buffer().as_ptr();
        reader.get_mut().set_reader_buffer(start, config.cap);
        reader
    }

    fn look<'r, S: ObservedRead>(reader: &'r BufReader<S>) -> Look<'r> {
        Look::Unread(reader.buffer())
    }

    fn snippet_main(_: &Params, call: &str) -> String {
        format!(
            "    // std BufReader: one large read fills the buffer; small reads are served from it,
    // reads of at least CAP bytes bypass it.
    let mut reader = BufReader::with_capacity(CAP, open()?);
    let n = {call}(&mut reader)?;
    println!(\"BufReader: {{n}} bytes\");
"
        )
    }
}

/// The buffered way: `read_until` for lines, the buffer scanned in place.
impl<R: Read> Buffered for BufReader<R> {}
