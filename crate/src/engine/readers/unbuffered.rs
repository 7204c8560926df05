//! No buffer: the application reads the source itself, and every application
//! read is a source read (a system call, in a real program).

use std::io::{self, Read};

use super::{Look, ReaderConfig, ReaderInfo, SnippetPart, Strategy};
use crate::engine::source::ObservedRead;
use crate::engine::workload::AppReader;
use crate::model::{Params, ReaderKind, Shape};

pub struct Unbuffered;

/// The source itself, as the application's reader. A transparent wrapper:
/// every call goes straight to the source's own method.
#[derive(Debug)]
pub struct Direct<S>(pub S);

impl<S: Read> Read for Direct<S> {
    #[inline]
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }

    #[inline]
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        self.0.read_exact(buf)
    }

    #[inline]
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        self.0.read_to_end(buf)
    }

    #[inline]
    fn read_to_string(&mut self, buf: &mut String) -> io::Result<usize> {
        self.0.read_to_string(buf)
    }
}

/// Without a buffer the application can only `read`: the provided methods.
impl<S: Read> AppReader for Direct<S> {}

impl Strategy for Unbuffered {
    const INFO: ReaderInfo = ReaderInfo {
        id: ReaderKind::Unbuffered,
        label: "unbuffered Read",
        about: "Each application read goes straight to the source: one system call per read.",
        keys: &[],
        shape: Shape::Unbuffered,
    };
    const SNIPPET: SnippetPart = SnippetPart { imports: &[], buffered: false, described_only: false, uses_cap: false };

    type Shared = ();
    type Reader<'s, S: ObservedRead + 's> = Direct<S>;

    fn shared(_: ReaderConfig) -> io::Result<()> {
        Ok(())
    }

    fn build<'s, S: ObservedRead + 's>(_: &'s (), _: ReaderConfig, source: S) -> Direct<S> {
        Direct(source)
    }

    fn look<'r, S: ObservedRead>(_: &'r Direct<S>) -> Look<'r> {
        Look::Nothing
    }

    fn snippet_main(_: &Params, call: &str) -> String {
        format!(
            "    // unbuffered Read: every application read is a system call.
    let mut source = open()?;
    let n = {call}(&mut source)?;
    println!(\"unbuffered: {{n}} bytes\");
"
        )
    }
}
