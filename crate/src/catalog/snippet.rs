//! The Rust program a [`Params`] corresponds to: what a person would write
//! with std types (and, in the write lab, serde + bincode 1 + bytes) to run
//! the same experiment on a real file or socket.
//!
//! What must stay true:
//! - the program uses the values of the link (`cap`, `rs`, stream length,
//!   write-lab sizes) as named constants, so a reader can find them;
//! - read-lab programs use std only and compile as they are, without
//!   warnings (`tests/snippet.rs` runs `rustc` on one per workload), except
//!   with an async reader: its loop is an `async fn` over its library's
//!   traits (tokio on a current-thread runtime, futures with its own
//!   executor), and the program names its dependencies; write-lab programs
//!   compile against bincode 1, serde and bytes (ignored tests check both
//!   kinds with cargo);
//! - the chained reader is BufLab's own type, not std's: it appears only in
//!   comments, so the program still compiles with std alone;
//! - a program mirrors the loop the engine drives (engine/workload.rs, the
//!   reader modules, engine/write/cursors.rs), not a tidier one: the counts on
//!   the page are the counts of this code. Each reader's own lines come from
//!   its module (`Strategy::snippet_main`).

use std::fmt::Write as _;

use serde::Serialize;

use super::cursors::flavour;
use crate::engine::readers::{self, AsyncSnippet, SnippetPart, Strategy, Visit};
use crate::link;
use crate::model::{format_size, ChunkModel, Flavour, Id, Lab, Params, ReaderKind, Workload};

/// The link in a program's header: presenter mode changes nothing a
/// program does, so it is left out.
fn link_of(p: &Params) -> String {
    link::encode(&Params { present: false, predict: false, ..p.clone() })
}

/// One reader's part of the program.
struct ReaderPart {
    part: SnippetPart,
    /// An async reader's module (its loop as an `async fn`).
    asynchronous: Option<AsyncSnippet>,
    /// Its lines in `main`.
    main: String,
}

impl ReaderPart {
    /// Written as code that calls the program's blocking loop.
    fn calls_blocking_loop(&self) -> bool {
        !self.part.described_only && self.asynchronous.is_none()
    }
}

/// A reader's part of the program, and its lines in `main`.
fn reader_part(kind: ReaderKind, p: &Params, call: &dyn Fn(bool) -> &'static str) -> ReaderPart {
    struct Part<'a> {
        p: &'a Params,
        call: &'a dyn Fn(bool) -> &'static str,
    }
    impl Visit for Part<'_> {
        type Output = ReaderPart;
        fn visit<T: Strategy>(self) -> ReaderPart {
            ReaderPart {
                part: T::SNIPPET,
                asynchronous: T::ASYNC_SNIPPET,
                main: T::snippet_main(self.p, (self.call)(T::SNIPPET.buffered)),
            }
        }
    }
    readers::visit(kind, Part { p, call })
}

/// The program for `p`'s lab (`p.lab`).
pub fn snippet(p: &Params) -> String {
    match p.lab {
        Lab::Read => read_snippet(p),
        Lab::Write => write_snippet(p),
    }
}

/// A size constant: `const NAME: usize = 8192; // 8K, link key cap`.
fn size_const(out: &mut String, name: &str, value: u64, key: &str, doc: &str) {
    let shown = format_size(value);
    let suffix = if shown == value.to_string() { String::new() } else { format!("{shown}, ") };
    let _ = writeln!(out, "/// {doc}");
    let _ = writeln!(out, "const {name}: usize = {value}; // {suffix}link key `{key}`");
}

/// What the simulated source stands for, the std type that plays it, and
/// how the program opens it: one file or socket, or with several streams
/// (`streams`), stream `stream` of them (`data-1.bin`, …, as `buflab stream
/// --streams` writes them; ports from 7878 up).
fn source_of(p: &Params) -> (&'static str, String, &'static str) {
    let (source_type, about, one) = source_of_chunk(p.chunk);
    let open = match (p.streams > 1, source_type) {
        (false, _) => one,
        (true, "File") if p.chunk == ChunkModel::Pipe => "File::open(format!(\"data-{stream}.fifo\"))",
        (true, "File") => "File::open(format!(\"data-{stream}.bin\"))",
        (true, _) => "TcpStream::connect((\"127.0.0.1\", 7877 + stream as u16))",
    };
    (source_type, about, open)
}

fn source_of_chunk(chunk: ChunkModel) -> (&'static str, String, &'static str) {
    match chunk {
        ChunkModel::File => ("File", "a regular file: each read gets all it asks for".into(), "File::open(\"data.bin\")"),
        ChunkModel::Pipe => ("File", "a pipe: at most 64 KiB per read".into(), "File::open(\"data.fifo\")"),
        ChunkModel::Uniform { min, max } => {
            let preset = chunk.preset_name().map(|n| format!(" (`{n}` network)")).unwrap_or_default();
            (
                "TcpStream",
                format!("a socket whose reads return {}-{} bytes{preset}", format_size(min as u64), format_size(max as u64)),
                "TcpStream::connect(\"127.0.0.1:7878\")",
            )
        }
        ChunkModel::Fixed { size } => (
            "TcpStream",
            format!("a socket whose reads return at most {} bytes", format_size(size as u64)),
            "TcpStream::connect(\"127.0.0.1:7878\")",
        ),
    }
}

/// How to get the link's stream where the program reads it (`buflab stream`
/// writes the bytes the simulated source delivers). Over a file the
/// program's `read(2)` calls are the source reads BufLab counts
/// (`crate/tests/kernel.rs` checks).
fn stream_command(p: &Params) -> String {
    let link = link_of(p);
    let n = p.streams;
    if n > 1 {
        // Every stream carries the same bytes; each pipe or socket gets a writer of its own.
        return match p.chunk {
            ChunkModel::File => {
                format!("buflab stream --streams --out data.bin '#{link}' (data-1.bin … data-{n}.bin), then run this program beside them.")
            }
            ChunkModel::Pipe => format!(
                "for i in $(seq 1 {n}); do mkfifo data-$i.fifo; buflab stream --out data-$i.fifo '#{link}' & done; then run this program."
            ),
            ChunkModel::Uniform { .. } | ChunkModel::Fixed { .. } => format!(
                "for i in $(seq 1 {n}); do buflab stream '#{link}' | nc -l 127.0.0.1 $((7877 + i)) & done; then run this program."
            ),
        };
    }
    match p.chunk {
        ChunkModel::File => format!("buflab stream --out data.bin '#{link}', then run this program beside data.bin."),
        ChunkModel::Pipe => {
            format!("mkfifo data.fifo; buflab stream --out data.fifo '#{link}' & then run this program.")
        }
        ChunkModel::Uniform { .. } | ChunkModel::Fixed { .. } => {
            format!("buflab stream '#{link}' | nc -l 127.0.0.1 7878 & then run this program.")
        }
    }
}

// ---------------------------------------------------------------------------
// The read lab

/// How the workload's loop looks for a reader with and without a buffer.
/// `generic` is one function for every reader (`R: Read`); otherwise the
/// unbuffered and the buffered reader each get their own.
struct ReadLoop {
    doc: &'static str,
    generic: Option<String>,
    unbuffered: Option<String>,
    buffered: Option<String>,
    uses_rs_generic: bool,
    uses_rs_unbuffered: bool,
    uses_len: bool,
}

fn read_loop(p: &Params) -> ReadLoop {
    let none = ReadLoop {
        doc: "",
        generic: None,
        unbuffered: None,
        buffered: None,
        uses_rs_generic: false,
        uses_rs_unbuffered: false,
        uses_len: false,
    };
    match p.workload {
        Workload::Fixed => ReadLoop {
            doc: "`wl=fixed`: read() into a buffer of RS bytes until it returns 0.",
            generic: Some(
                "fn app<R: Read>(reader: &mut R) -> io::Result<u64> {
    let mut buf = [0u8; RS];
    let mut total = 0u64;
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return Ok(total),
            Ok(n) => total += n as u64,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}"
                .into(),
            ),
            uses_rs_generic: true,
            ..none
        },
        Workload::Exact => ReadLoop {
            doc: "`wl=exact`: records of RS bytes with read_exact; the last one is what is left.",
            generic: Some(
                "fn app<R: Read>(reader: &mut R) -> io::Result<u64> {
    let mut buf = [0u8; RS];
    let mut left = LEN;
    while left > 0 {
        let n = RS.min(left);
        reader.read_exact(&mut buf[..n])?;
        left -= n;
    }
    Ok(LEN as u64)
}"
                .into(),
            ),
            uses_rs_generic: true,
            uses_len: true,
            ..none
        },
        Workload::Bytes => ReadLoop {
            doc: "`wl=bytes`: Read::bytes(), one byte per call.",
            generic: Some(
                "fn app<R: Read>(reader: &mut R) -> io::Result<u64> {
    let mut total = 0u64;
    for byte in reader.by_ref().bytes() {
        let _byte: u8 = byte?;
        total += 1;
    }
    Ok(total)
}"
                .into(),
            ),
            ..none
        },
        Workload::ToEnd => ReadLoop {
            doc: "`wl=to_end`: read_to_end into a Vec sized for the whole stream, then a scan for NUL.",
            generic: Some(
                "fn app<R: Read>(reader: &mut R) -> io::Result<u64> {
    let mut all = Vec::with_capacity(LEN);
    let n = reader.read_to_end(&mut all)?;
    let _first_nul = all.iter().position(|&b| b == 0);
    Ok(n as u64)
}"
                .into(),
            ),
            uses_len: true,
            ..none
        },
        Workload::Lines => ReadLoop {
            doc: "`wl=lines`: text lines, newline included.",
            unbuffered: Some(
                "/// Without a buffer: one byte per read(), the only way not to take
/// bytes that belong to the next line. Returns the line's length, 0 at the
/// end (as read_until does).
fn read_line_unbuffered<R: Read>(reader: &mut R, line: &mut Vec<u8>) -> io::Result<usize> {
    line.clear();
    let mut byte = [0u8; 1];
    loop {
        match reader.read(&mut byte) {
            Ok(0) => return Ok(line.len()),
            Ok(_) => {
                line.push(byte[0]);
                if byte[0] == b'\\n' {
                    return Ok(line.len());
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

fn app_unbuffered<R: Read>(reader: &mut R) -> io::Result<u64> {
    let mut line = Vec::new();
    let mut total = 0u64;
    loop {
        let n = read_line_unbuffered(reader, &mut line)?;
        if n == 0 {
            return Ok(total);
        }
        total += n as u64;
    }
}"
                .into(),
            ),
            buffered: Some(
                "/// With a buffer: read_until copies each line out of the buffer.
fn app_buffered<R: BufRead>(reader: &mut R) -> io::Result<u64> {
    let mut line = Vec::new();
    let mut total = 0u64;
    loop {
        line.clear();
        let n = reader.read_until(b'\\n', &mut line)?;
        if n == 0 {
            return Ok(total);
        }
        total += n as u64;
    }
}"
                .into(),
            ),
            ..none
        },
        Workload::Frames => {
            let payload = if p.reuse {
                "        // `reuse=on`: one payload buffer for every frame.
        if payload.len() < len {
            payload.resize(len, 0);
        }
        reader.read_exact(&mut payload[..len])?;"
            } else {
                "        // A fresh Vec per frame, as code that hands each payload on does.
        let mut payload = vec![0u8; len];
        reader.read_exact(&mut payload)?;"
            };
            let reused = if p.reuse { "    let mut payload = Vec::new();\n" } else { "" };
            ReadLoop {
                doc: "`wl=frames`: a 4-byte big-endian length, then the payload.",
                generic: Some(format!(
                    "fn app<R: Read>(reader: &mut R) -> io::Result<u64> {{
    let mut total = 0u64;
{reused}    loop {{
        let mut header = [0u8; 4];
        // The first header byte alone: 0 bytes here is a clean end of stream.
        match reader.read(&mut header[..1]) {{
            Ok(0) => return Ok(total),
            Ok(_) => {{}}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }}
        reader.read_exact(&mut header[1..])?;
        let len = u32::from_be_bytes(header) as usize;
{payload}
        total += 4 + len as u64;
    }}
}}"
                )),
                ..none
            }
        }
        Workload::Scan => ReadLoop {
            doc: "`wl=scan`: count the bytes before the first NUL.",
            unbuffered: Some(
                "/// Without a buffer: read() chunks of RS bytes into our own array.
fn app_unbuffered<R: Read>(reader: &mut R) -> io::Result<u64> {
    let mut buf = [0u8; RS];
    let mut before = 0u64;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            return Ok(before);
        }
        match buf[..n].iter().position(|&b| b == 0) {
            Some(at) => return Ok(before + at as u64),
            None => before += n as u64,
        }
    }
}"
                .into(),
            ),
            buffered: Some(
                "/// With a buffer: scan it in place (fill_buf), then consume. No copy.
fn app_buffered<R: BufRead>(reader: &mut R) -> io::Result<u64> {
    let mut before = 0u64;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(before);
        }
        let n = available.len();
        match available.iter().position(|&b| b == 0) {
            Some(at) => {
                reader.consume(at + 1);
                return Ok(before + at as u64);
            }
            None => {
                before += n as u64;
                reader.consume(n);
            }
        }
    }
}"
                .into(),
            ),
            uses_rs_unbuffered: true,
            ..none
        },
    }
}

/// The workload's loop as an `async fn` over an async library's traits, in
/// a module of its own: the same steps the engine awaits
/// (`engine::readers::poll`), one future per application call.
fn async_module(p: &Params, lib: &AsyncSnippet, form: Form) -> String {
    let consume = lib.consume;
    let (ext, uses, body): (&[&str], &[&str], String) = match p.workload {
        Workload::Fixed => (
            &["AsyncReadExt"],
            &["RS"],
            "        let mut buf = [0u8; RS];
        let mut total = 0u64;
        loop {
            match reader.read(&mut buf).await? {
                0 => return Ok(total),
                n => total += n as u64,
            }
        }"
            .into(),
        ),
        Workload::Exact => (
            &["AsyncReadExt"],
            &["LEN", "RS"],
            "        let mut buf = [0u8; RS];
        let mut left = LEN;
        while left > 0 {
            let n = RS.min(left);
            reader.read_exact(&mut buf[..n]).await?;
            left -= n;
        }
        Ok(LEN as u64)"
                .into(),
        ),
        Workload::Bytes => (
            &["AsyncReadExt"],
            &[],
            "        // AsyncReadExt has no bytes(): one 1-byte read per byte.
        let mut byte = [0u8; 1];
        let mut total = 0u64;
        while reader.read(&mut byte).await? == 1 {
            total += 1;
        }
        Ok(total)"
                .into(),
        ),
        Workload::ToEnd => (
            &["AsyncReadExt"],
            &["LEN"],
            "        let mut all = Vec::with_capacity(LEN);
        let n = reader.read_to_end(&mut all).await?;
        let _first_nul = all.iter().position(|&b| b == 0);
        Ok(n as u64)"
                .into(),
        ),
        Workload::Lines => (
            &["AsyncBufReadExt"],
            &[],
            "        let mut line = Vec::new();
        let mut total = 0u64;
        loop {
            line.clear();
            let n = reader.read_until(b'\\n', &mut line).await?;
            if n == 0 {
                return Ok(total);
            }
            total += n as u64;
        }"
            .into(),
        ),
        Workload::Frames => {
            let payload = if p.reuse {
                "            // `reuse=on`: one payload buffer for every frame.
            if payload.len() < len {
                payload.resize(len, 0);
            }
            reader.read_exact(&mut payload[..len]).await?;"
            } else {
                "            // A fresh Vec per frame, as code that hands each payload on does.
            let mut payload = vec![0u8; len];
            reader.read_exact(&mut payload).await?;"
            };
            let reused = if p.reuse { "        let mut payload = Vec::new();\n" } else { "" };
            (
                &["AsyncBufReadExt", "AsyncReadExt"],
                &[],
                format!(
                    "        let mut total = 0u64;
{reused}        loop {{
            // Nothing left in the buffer after fill_buf: a clean end of stream.
            if reader.fill_buf().await?.is_empty() {{
                return Ok(total);
            }}
            let mut header = [0u8; 4];
            reader.read_exact(&mut header).await?;
            let len = u32::from_be_bytes(header) as usize;
{payload}
            total += 4 + len as u64;
        }}"
                ),
            )
        }
        Workload::Scan => (
            &["AsyncBufReadExt"],
            &[],
            format!(
                "        let mut before = 0u64;
        loop {{
            let available = reader.fill_buf().await?;
            if available.is_empty() {{
                return Ok(before);
            }}
            let n = available.len();
            match available.iter().position(|&b| b == 0) {{
                Some(at) => {{
                    reader.{consume}(at + 1);
                    return Ok(before + at as u64);
                }}
                None => {{
                    before += n as u64;
                    reader.{consume}(n);
                }}
            }}
        }}"
            ),
        ),
    };
    let mut out = String::new();
    let _ = writeln!(out, "/// The same loop over {}'s traits, each call awaited.", lib.traits);
    let _ = writeln!(out, "mod {} {{", lib.module);
    let _ = writeln!(out, "    use std::io;\n");
    let mut traits = vec!["AsyncBufRead"];
    traits.extend_from_slice(ext);
    let _ = writeln!(out, "    use {}::{{{}}};", lib.traits, traits.join(", "));
    if !uses.is_empty() {
        let _ = writeln!(out, "\n    use super::{{{}}};", uses.join(", "));
    }
    if lib.opens_its_own && form == Form::SelfContained {
        let (param, arg) = if p.streams > 1 { ("stream: usize", "stream") } else { ("", "") };
        let _ = writeln!(out);
        let _ = writeln!(out, "    /// The program's in-memory source, read through {}'s traits.", lib.traits);
        let _ = writeln!(out, "    pub async fn open({param}) -> io::Result<super::Source> {{\n        super::open({arg})\n    }}");
    } else if lib.opens_its_own {
        let (source_type, _, open_expr) = source_of(p);
        let module = if source_type == "File" { "fs" } else { "net" };
        let param = if p.streams > 1 { "stream: usize" } else { "" };
        let _ = writeln!(out);
        if source_type == "File" {
            let _ = writeln!(out, "    /// tokio::fs::File reads on a blocking thread, through a buffer of its own.");
        }
        let _ = writeln!(
            out,
            "    pub async fn open({param}) -> io::Result<{traits_root}::{module}::{source_type}> {{\n        {traits_root}::{module}::{open_expr}.await\n    }}",
            traits_root = lib.traits.split("::").next().unwrap_or(lib.traits),
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "    pub async fn app<R: AsyncBufRead + Unpin>(reader: &mut R) -> io::Result<u64> {{");
    let _ = writeln!(out, "{body}");
    let _ = writeln!(out, "    }}\n}}");
    out
}

/// Where a read-lab program gets its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// A real file, pipe or socket (`open()`), fed by `buflab stream`.
    Real,
    /// Bytes it makes itself, cut into the link's chunks by a source of its
    /// own that counts its read calls: for the Rust Playground.
    SelfContained,
}

fn read_snippet(p: &Params) -> String {
    read_program(p, Form::Real)
}

fn read_program(p: &Params, form: Form) -> String {
    let contained = form == Form::SelfContained;
    let lp = read_loop(p);
    let call = |buffered: bool| -> &'static str {
        match (&lp.generic, buffered, p.streams > 1) {
            (Some(_), _, false) => "app",
            (None, false, false) => "app_unbuffered",
            (None, true, false) => "app_buffered",
            (Some(_), _, true) => "step",
            (None, false, true) => "step_unbuffered",
            (None, true, true) => "step_buffered",
        }
    };
    let parts: Vec<ReaderPart> = p.readers.iter().map(|&k| reader_part(k, p, &call)).collect();
    let written = || parts.iter().filter(|r| r.calls_blocking_loop()).map(|r| &r.part);
    let asyncs: Vec<AsyncSnippet> = parts.iter().filter_map(|r| r.asynchronous).collect();
    // The blocking loops appear unless every reader written as code is async.
    let blocking = written().next().is_some() || asyncs.is_empty();
    // Readers that appear as code, with and without a buffer of their own.
    let unbuffered = written().any(|part| !part.buffered);
    let buffered = written().any(|part| part.buffered);
    let std_open = blocking || asyncs.iter().any(|a| !a.opens_its_own) || contained;
    let (source_type, source_about, open_expr) = source_of(p);
    let streams = p.streams > 1;

    let uses_bufread = lp.buffered.is_some() && buffered;
    let mut out = String::new();
    let _ = writeln!(out, "// BufLab, read lab: the Rust program this experiment corresponds to.");
    let _ = writeln!(out, "// Link: #{}", link_of(p));
    if !asyncs.is_empty() {
        let deps: Vec<&str> = asyncs.iter().map(|a| a.dependency).collect();
        let _ = writeln!(out, "// Cargo.toml [dependencies]: {}", deps.join(", "));
    }
    if contained {
        let _ = writeln!(out, "// Self-contained: it makes the link's bytes and cuts them as BufLab's simulated source does");
        let _ = writeln!(out, "// ({}), and counts the source's read calls: BufLab's", chunks_in_words(p.chunk));
        let _ = writeln!(out, "// source reads, the stand-ins for system calls. Run it in release mode.");
    } else {
        let _ = writeln!(out, "// The source: {source_about},");
        let _ = writeln!(out, "// played here by a real {source_type} (BufLab simulates it and counts every read).");
        let _ = writeln!(out, "// The same bytes: {}", stream_command(p));
    }
    if streams {
        let _ = writeln!(out, "// BufLab reads {} such streams round-robin, each through its own reader", p.streams);
        let _ = writeln!(out, "// (so {} buffers at once): one step on each stream in turn, as below.", p.streams);
        if !asyncs.is_empty() {
            let _ = writeln!(out, "// The async readers here read the streams one after another (each stream's reads are the same).");
        }
    }
    if !asyncs.is_empty() && p.pend > 0 {
        let _ = writeln!(
            out,
            "// Before {}% of its reads the source is not yet readable: an .await returns Pending first.",
            p.pend
        );
    }
    if contained && !asyncs.is_empty() && p.pend > 0 {
        let _ = writeln!(out, "// (Here the source is always ready: a Pending costs a poll, never a source read.)");
    }
    if blocking && written().next().is_none() {
        // Only readers described in comments: the helpers they would call are
        // otherwise unused.
        let _ = writeln!(out, "#![allow(dead_code)] // the reader below is described, not called");
    }
    let _ = writeln!(out);
    if std_open && !contained {
        let _ = writeln!(out, "use std::{}::{source_type};", if source_type == "File" { "fs" } else { "net" });
    }
    let mut io_items = vec!["self"];
    if uses_bufread {
        io_items.push("BufRead");
    }
    for item in written().flat_map(|part| part.imports) {
        if !io_items.contains(item) {
            io_items.push(item);
        }
    }
    if contained || (blocking && (lp.generic.is_some() || (unbuffered && lp.unbuffered.is_some()))) {
        if !io_items.contains(&"Read") {
            io_items.push("Read");
        }
    }
    if io_items.len() == 1 {
        let _ = writeln!(out, "use std::io;");
    } else {
        let _ = writeln!(out, "use std::io::{{{}}};", io_items.join(", "));
    }
    if contained {
        out.push_str(&contained_uses(parts.iter().any(|r| r.asynchronous.is_some_and(|a| a.opens_its_own))));
    }
    let _ = writeln!(out);

    if parts.iter().any(|r| r.part.uses_cap) {
        size_const(&mut out, "CAP", p.cap, "cap", "Buffer capacity (std) or block length (chained), in bytes.");
    }
    let async_rs = !asyncs.is_empty() && matches!(p.workload, Workload::Fixed | Workload::Exact);
    let async_len = !asyncs.is_empty() && matches!(p.workload, Workload::Exact | Workload::ToEnd);
    let rs_used = blocking && ((lp.generic.is_some() && lp.uses_rs_generic) || (lp.uses_rs_unbuffered && unbuffered));
    if rs_used || async_rs {
        size_const(&mut out, "RS", p.rs, "rs", "The application's read size, in bytes.");
    }
    if (blocking && lp.uses_len) || async_len || contained {
        size_const(&mut out, "LEN", p.len, "len", "Stream length in bytes (the application knows it, as with a file).");
    }
    if contained {
        out.push_str(&contained_source(p, parts.iter().any(|r| r.asynchronous.is_some_and(|a| a.opens_its_own))));
    }
    if streams {
        let _ = writeln!(out, "/// Streams read at once, each from its own source; link key `streams`.");
        let _ = writeln!(out, "const STREAMS: usize = {};", p.streams);
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "// {}", lp.doc);
    let steps = streams.then(|| round_robin_steps(p));
    let (generic, unbuffered_loop, buffered_loop) = match &steps {
        Some(st) => (&st.generic, &st.unbuffered, &st.buffered),
        None => (&lp.generic, &lp.unbuffered, &lp.buffered),
    };
    if blocking {
        if let Some(g) = generic {
            let _ = writeln!(out, "{g}\n");
        }
    }
    if unbuffered {
        if let Some(u) = unbuffered_loop {
            let _ = writeln!(out, "{u}\n");
        }
    }
    if buffered {
        if let Some(b) = buffered_loop {
            let _ = writeln!(out, "{b}\n");
        }
    }
    if let (Some(st), true) = (&steps, blocking) {
        let _ = writeln!(out, "{}\n", st.progress);
        let _ = writeln!(out, "{ROUND_ROBIN}\n");
    }
    for lib in &asyncs {
        let _ = writeln!(out, "{}", async_module(p, lib, form));
    }
    if contained {
        out.push_str(&contained_open(p));
    } else if std_open {
        let param = if streams { "stream: usize" } else { "" };
        let _ = writeln!(out, "fn open({param}) -> io::Result<{source_type}> {{\n    {open_expr}\n}}\n");
    }

    let _ = writeln!(out, "fn main() -> io::Result<()> {{");
    let mains: Vec<String> = parts
        .iter()
        .zip(&p.readers)
        .map(|(r, kind)| {
            let main = match &steps {
                Some(st) => over_streams(&r.main, st.bytes),
                None => r.main.clone(),
            };
            if contained && !r.part.described_only {
                format!("{main}    println!(\"{}: {{}} source reads\", SOURCE_READS.load(Ordering::Relaxed));\n", kind.id())
            } else {
                main
            }
        })
        .collect();
    out.push_str(&mains.join("\n"));
    let _ = writeln!(out, "    Ok(())\n}}");
    out
}

/// The round-robin driver of a program over several streams: BufLab's order.
const ROUND_ROBIN: &str = "/// BufLab's order over several streams: one step on each stream that has not
/// ended, in stream order, round after round. Returns the bytes of all.
fn round_robin<R>(readers: Vec<R>, step: fn(&mut R, &mut Progress) -> io::Result<bool>) -> io::Result<u64> {
    let mut streams: Vec<(R, Progress, bool)> = readers.into_iter().map(|r| (r, Progress::new(), true)).collect();
    while streams.iter().any(|(_, _, live)| *live) {
        for (reader, progress, live) in streams.iter_mut() {
            if *live {
                *live = step(reader, progress)?;
            }
        }
    }
    Ok(streams.iter().map(|(_, progress, _)| progress.total).sum())
}";

/// A reader's lines in `main`, over every stream: the reader built once
/// per stream (`open(stream)`), the workload run round-robin over them
/// ([`ROUND_ROBIN`]); an async reader's loop runs once per stream, one
/// stream after another. `bytes`: the steps take `Read::bytes()` iterators.
fn over_streams(main: &str, bytes: bool) -> String {
    let lines: Vec<&str> = main.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].replace("open()", "open(stream)");
        let indent = &line[..line.len() - line.trim_start().len()];
        let built = line.trim_start().strip_prefix("let mut ").and_then(|rest| rest.split_once(" = "));
        match (built, lines.get(i + 1)) {
            // A blocking reader and its loop: `let mut reader = EXPR;` then `let n = step(&mut reader)?;`.
            (Some((name, expr)), Some(next)) if next.trim_start().starts_with("let n = ") && next.contains(&format!("(&mut {name})?")) => {
                let expr = expr.trim_end_matches(';');
                let step = next.trim_start()["let n = ".len()..].split('(').next().unwrap_or("step");
                let all = format!("{name}s");
                let readers = if bytes { format!("{all}.into_iter().map(Read::bytes).collect()") } else { all.clone() };
                let each = if expr == "open(stream)?" { "open".to_string() } else { format!("|stream| Ok({expr})") };
                let _ = writeln!(out, "{indent}let {all} = (1..=STREAMS).map({each}).collect::<io::Result<Vec<_>>>()?;");
                let _ = writeln!(out, "{indent}let n = round_robin({readers}, {step})?;");
                i += 2;
            }
            // An async reader: `let mut reader = EXPR;` then `module::app(&mut reader).await`.
            (Some((name, expr)), Some(next)) if next.trim_start().ends_with(&format!("app(&mut {name}).await")) => {
                let expr = expr.trim_end_matches(';');
                let call = next.trim_start();
                let _ = writeln!(out, "{indent}let mut n = 0;");
                let _ = writeln!(out, "{indent}for stream in 1..=STREAMS {{");
                let _ = writeln!(out, "{indent}    let mut {name} = {expr};");
                let _ = writeln!(out, "{indent}    n += {call}?;");
                let _ = writeln!(out, "{indent}}}");
                let _ = writeln!(out, "{indent}Ok::<u64, io::Error>(n)");
                i += 2;
            }
            _ => {
                let _ = writeln!(out, "{line}");
                i += 1;
            }
        }
    }
    out
}

/// The workload's loop as one step on one stream, for the round robin.
struct Steps {
    generic: Option<String>,
    unbuffered: Option<String>,
    buffered: Option<String>,
    /// What the program keeps per stream, with its `new`.
    progress: String,
    /// The steps take `Read::bytes()` iterators (`wl=bytes`).
    bytes: bool,
}

/// [`Steps`] for `p`'s workload: the same calls as [`read_loop`]'s loops,
/// one iteration at a time (as `engine::workload` takes them).
fn round_robin_steps(p: &Params) -> Steps {
    let progress = |fields: &str, init: &str| {
        format!(
            "/// What the program keeps for each stream.
struct Progress {{
    total: u64,{fields}
}}

impl Progress {{
    fn new() -> Progress {{
        Progress {{ total: 0{init} }}
    }}
}}"
        )
    };
    let none = Steps { generic: None, unbuffered: None, buffered: None, progress: progress("", ""), bytes: false };
    let interrupted = "Err(e) if e.kind() == io::ErrorKind::Interrupted";
    match p.workload {
        Workload::Fixed => Steps {
            generic: Some(format!(
                "/// One step: one read() into a buffer of RS bytes; false once it returns 0.
fn step<R: Read>(reader: &mut R, progress: &mut Progress) -> io::Result<bool> {{
    let mut buf = [0u8; RS];
    match reader.read(&mut buf) {{
        Ok(0) => Ok(false),
        Ok(n) => {{
            progress.total += n as u64;
            Ok(true)
        }}
        {interrupted} => Ok(true),
        Err(e) => Err(e),
    }}
}}"
            )),
            ..none
        },
        Workload::Exact => Steps {
            generic: Some(
                "/// One step: one record of RS bytes with read_exact; the last one is what is left.
fn step<R: Read>(reader: &mut R, progress: &mut Progress) -> io::Result<bool> {
    let n = RS.min(progress.left);
    if n == 0 {
        return Ok(false);
    }
    let mut buf = [0u8; RS];
    reader.read_exact(&mut buf[..n])?;
    progress.left -= n;
    progress.total += n as u64;
    Ok(progress.left > 0)
}"
                .into(),
            ),
            progress: progress("\n    left: usize,", ", left: LEN"),
            ..none
        },
        Workload::Bytes => Steps {
            generic: Some(
                "/// One step: the next byte of the stream's bytes() iterator.
fn step<R: Read>(bytes: &mut io::Bytes<R>, progress: &mut Progress) -> io::Result<bool> {
    match bytes.next() {
        None => Ok(false),
        Some(byte) => {
            let _byte: u8 = byte?;
            progress.total += 1;
            Ok(true)
        }
    }
}"
                .into(),
            ),
            bytes: true,
            ..none
        },
        Workload::ToEnd => Steps {
            generic: Some(
                "/// One step: the whole stream with read_to_end, then a scan for NUL.
fn step<R: Read>(reader: &mut R, progress: &mut Progress) -> io::Result<bool> {
    let mut all = Vec::with_capacity(LEN);
    let n = reader.read_to_end(&mut all)?;
    let _first_nul = all.iter().position(|&b| b == 0);
    progress.total += n as u64;
    Ok(false)
}"
                .into(),
            ),
            ..none
        },
        Workload::Lines => Steps {
            unbuffered: Some(
                "/// Without a buffer: one byte per read(), the only way not to take
/// bytes that belong to the next line. Returns the line's length, 0 at the
/// end (as read_until does).
fn read_line_unbuffered<R: Read>(reader: &mut R, line: &mut Vec<u8>) -> io::Result<usize> {
    line.clear();
    let mut byte = [0u8; 1];
    loop {
        match reader.read(&mut byte) {
            Ok(0) => return Ok(line.len()),
            Ok(_) => {
                line.push(byte[0]);
                if byte[0] == b'\\n' {
                    return Ok(line.len());
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// One step: one line.
fn step_unbuffered<R: Read>(reader: &mut R, progress: &mut Progress) -> io::Result<bool> {
    let n = read_line_unbuffered(reader, &mut progress.line)?;
    progress.total += n as u64;
    Ok(n > 0)
}"
                .into(),
            ),
            buffered: Some(
                "/// With a buffer, one step: one line, copied out of the buffer by read_until.
fn step_buffered<R: BufRead>(reader: &mut R, progress: &mut Progress) -> io::Result<bool> {
    progress.line.clear();
    let n = reader.read_until(b'\\n', &mut progress.line)?;
    progress.total += n as u64;
    Ok(n > 0)
}"
                .into(),
            ),
            progress: progress("\n    line: Vec<u8>,", ", line: Vec::new()"),
            ..none
        },
        Workload::Frames => {
            let payload = if p.reuse {
                "    // `reuse=on`: one payload buffer for every frame of the stream.
    if progress.payload.len() < len {
        progress.payload.resize(len, 0);
    }
    reader.read_exact(&mut progress.payload[..len])?;"
            } else {
                "    // A fresh Vec per frame, as code that hands each payload on does.
    let mut payload = vec![0u8; len];
    reader.read_exact(&mut payload)?;"
            };
            Steps {
                generic: Some(format!(
                    "/// One step: a frame, its 4-byte big-endian length, then the payload.
fn step<R: Read>(reader: &mut R, progress: &mut Progress) -> io::Result<bool> {{
    let mut header = [0u8; 4];
    // The first header byte alone: 0 bytes here is a clean end of stream.
    match reader.read(&mut header[..1]) {{
        Ok(0) => return Ok(false),
        Ok(_) => {{}}
        {interrupted} => return Ok(true),
        Err(e) => return Err(e),
    }}
    reader.read_exact(&mut header[1..])?;
    let len = u32::from_be_bytes(header) as usize;
{payload}
    progress.total += 4 + len as u64;
    Ok(true)
}}"
                )),
                progress: if p.reuse { progress("\n    payload: Vec<u8>,", ", payload: Vec::new()") } else { progress("", "") },
                ..none
            }
        }
        Workload::Scan => Steps {
            unbuffered: Some(format!(
                "/// Without a buffer, one step: one read() of RS bytes into our own array.
fn step_unbuffered<R: Read>(reader: &mut R, progress: &mut Progress) -> io::Result<bool> {{
    let mut buf = [0u8; RS];
    let n = match reader.read(&mut buf) {{
        Ok(n) => n,
        {interrupted} => return Ok(true),
        Err(e) => return Err(e),
    }};
    if n == 0 {{
        return Ok(false);
    }}
    match buf[..n].iter().position(|&b| b == 0) {{
        Some(at) => {{
            progress.total += at as u64;
            Ok(false)
        }}
        None => {{
            progress.total += n as u64;
            Ok(true)
        }}
    }}
}}"
            )),
            buffered: Some(
                "/// With a buffer, one step: scan it in place (fill_buf), then consume. No copy.
fn step_buffered<R: BufRead>(reader: &mut R, progress: &mut Progress) -> io::Result<bool> {
    let available = reader.fill_buf()?;
    if available.is_empty() {
        return Ok(false);
    }
    let n = available.len();
    match available.iter().position(|&b| b == 0) {
        Some(at) => {
            reader.consume(at + 1);
            progress.total += at as u64;
            Ok(false)
        }
        None => {
            reader.consume(n);
            progress.total += n as u64;
            Ok(true)
        }
    }
}"
                .into(),
            ),
            ..none
        },
    }
}

// ---------------------------------------------------------------------------
// The write lab

fn write_snippet(p: &Params) -> String {
    let w = &p.write;
    let has = |f: Flavour| w.flavours.contains(&f);
    let cursor = [Flavour::CursorVec, Flavour::CursorMutVec, Flavour::CursorMutSlice, Flavour::CursorBox]
        .iter()
        .any(|&f| has(f));
    let growable = [Flavour::CursorVec, Flavour::CursorMutVec, Flavour::WriterVec, Flavour::BytesMut]
        .iter()
        .any(|&f| has(f));
    let fixed = [Flavour::CursorMutSlice, Flavour::CursorBox, Flavour::MutSlice].iter().any(|&f| has(f));

    let mut out = String::new();
    let _ = writeln!(out, "// BufLab, write lab: the Rust program this experiment corresponds to.");
    let _ = writeln!(out, "// Link: #{}", link_of(p));
    let _ = writeln!(out, "// Cargo.toml [dependencies]: bincode = \"1.3\"{},", if has(Flavour::BytesMut) { ", bytes = \"1\"" } else { "" });
    let _ = writeln!(out, "//   serde = {{ version = \"1\", features = [\"derive\"] }}");
    let _ = writeln!(out, "// The sink: a file or socket, played here by a real File (BufLab simulates it).");
    let _ = writeln!(out);
    let _ = writeln!(out, "use std::fs::File;");
    let mut io_items = vec!["self", "BufWriter"];
    if cursor {
        io_items.push("Cursor");
    }
    io_items.push("Write");
    let _ = writeln!(out, "use std::io::{{{}}};", io_items.join(", "));
    let _ = writeln!(out);
    let _ = writeln!(out, "use bincode::Options;");
    if has(Flavour::BytesMut) {
        let _ = writeln!(out, "use bytes::{{BufMut, BytesMut}};");
    }
    let _ = writeln!(out, "use serde::Serialize;");
    let _ = writeln!(out);
    size_const(&mut out, "RECORDS", w.records, "recs", "Records serialized.");
    if growable {
        size_const(&mut out, "INIT_CAP", w.init_cap, "icap", "Capacity the growable writers start with, in bytes.");
    }
    if fixed {
        size_const(&mut out, "BUF", w.buf, "buf", "Length of the fixed buffers, in bytes; too small ends in WriteZero.");
    }
    size_const(&mut out, "WLEN", w.len, "wlen", "Bytes written to the sink.");
    size_const(&mut out, "WS", w.ws, "ws", "The application's write size, in bytes.");
    size_const(&mut out, "WCAP", w.cap, "wcap", "BufWriter capacity, in bytes.");
    let _ = writeln!(out);
    out.push_str(
        "/// 16 bytes once encoded with fixed-width integers (8 + 4 + 1 + 1 + 2).
#[derive(Serialize)]
struct Record {
    timestamp: u64,
    value: u32,
    kind: u8,
    urgent: bool,
    channel: u16,
}

/// One serialize_into per record, bincode 1 with fixed-width big-endian integers.
fn encode_all<W: Write>(mut w: W, records: &[Record]) -> io::Result<()> {
    let opts = bincode::DefaultOptions::new().with_big_endian().with_fixint_encoding();
    for r in records {
        opts.serialize_into(&mut w, r).map_err(|e| match *e {
            bincode::ErrorKind::Io(e) => e,
            other => io::Error::other(other),
        })?;
    }
    Ok(())
}
",
    );
    if fixed {
        out.push_str(
            "
/// A fixed buffer that is too small is an error of kind WriteZero, not a panic.
fn report(name: &str, done: io::Result<()>, written: usize) -> io::Result<()> {
    match done {
        Ok(()) => println!(\"{name}: {written} bytes\"),
        Err(e) if e.kind() == io::ErrorKind::WriteZero => println!(\"{name}: full after {written} bytes: {e}\"),
        Err(e) => return Err(e),
    }
    Ok(())
}
",
        );
    }
    if has(Flavour::WriterVec) {
        out.push_str(
            "
/// Our own minimal growable writer: appends to a Vec. No position, so no seeking.
struct WriterVec(Vec<u8>);

impl Write for WriterVec {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
",
        );
    }
    out.push_str(
        "
fn main() -> io::Result<()> {
    let records: Vec<Record> = (0..RECORDS as u64)
        .map(|i| Record { timestamp: i, value: i as u32, kind: 1, urgent: i % 2 == 0, channel: 7 })
        .collect();
",
    );
    for f in &w.flavours {
        let _ = writeln!(out);
        let label = flavour(*f).label;
        let body = match f {
            Flavour::CursorVec => format!(
                "    // {label}: owns a growable Vec, seekable.
    let mut cursor = Cursor::new(Vec::with_capacity(INIT_CAP));
    encode_all(&mut cursor, &records)?;
    println!(\"{label}: {{}} bytes\", cursor.position());"
            ),
            Flavour::CursorMutVec => format!(
                "    // {label}: the same Cursor over a Vec the caller keeps.
    let mut vec = Vec::with_capacity(INIT_CAP);
    encode_all(Cursor::new(&mut vec), &records)?;
    println!(\"{label}: {{}} bytes\", vec.len());"
            ),
            Flavour::WriterVec => format!(
                "    // {label}: our own appending writer (defined above).
    let mut writer = WriterVec(Vec::with_capacity(INIT_CAP));
    encode_all(&mut writer, &records)?;
    println!(\"{label}: {{}} bytes\", writer.0.len());"
            ),
            Flavour::BytesMut => format!(
                "    // {label}: bytes::BytesMut through BufMut::writer().
    let mut writer = BytesMut::with_capacity(INIT_CAP).writer();
    encode_all(&mut writer, &records)?;
    println!(\"{label}: {{}} bytes\", writer.into_inner().len());"
            ),
            Flavour::CursorMutSlice => format!(
                "    // {label}: a Cursor over a borrowed fixed slice; never grows.
    let mut storage = vec![0u8; BUF];
    let mut cursor = Cursor::new(&mut storage[..]);
    let done = encode_all(&mut cursor, &records);
    report(\"{label}\", done, cursor.position() as usize)?;"
            ),
            Flavour::CursorBox => format!(
                "    // {label}: a Cursor owning a fixed boxed slice.
    let mut cursor = Cursor::new(vec![0u8; BUF].into_boxed_slice());
    let done = encode_all(&mut cursor, &records);
    report(\"{label}\", done, cursor.position() as usize)?;"
            ),
            Flavour::MutSlice => format!(
                "    // {label}: the slice is its own cursor; each write moves its start forward.
    let mut storage = vec![0u8; BUF];
    let mut rest: &mut [u8] = &mut storage;
    let done = encode_all(&mut rest, &records);
    let written = BUF - rest.len();
    report(\"{label}\", done, written)?;"
            ),
        };
        out.push_str(&body);
        out.push('\n');
    }
    out.push_str(
        "
    // The sink: WLEN bytes in write_all calls of WS bytes, direct and through a BufWriter.
    let data = vec![b'x'; WLEN];
    let mut direct = File::create(\"direct.bin\")?;
    for piece in data.chunks(WS) {
        direct.write_all(piece)?; // one system call (at least) per piece
    }
    direct.flush()?;

    let mut buffered = BufWriter::with_capacity(WCAP, File::create(\"buffered.bin\")?);
    for piece in data.chunks(WS) {
        buffered.write_all(piece)?; // copied into the buffer until it is full
    }
    // Flush (or into_inner) explicitly: an error in the flush on drop is lost.
    buffered.flush()?;
    Ok(())
}
",
    );
    out
}

// ---------------------------------------------------------------------------
// The self-contained form, for the Rust Playground

/// The `use` lines the self-contained form adds (`tokio`: the source is
/// read through tokio's `AsyncRead` too).
fn contained_uses(tokio: bool) -> String {
    let mut out = String::new();
    if tokio {
        out.push_str("use std::pin::Pin;\n");
    }
    out.push_str("use std::sync::atomic::{AtomicU64, Ordering};\n");
    if tokio {
        out.push_str("use std::task::{Context, Poll};\n");
    }
    out
}

/// Salt of the content's draws (`engine::content`), apart from the chunks'.
const CONTENT_SALT: &str = "0x636F_6E74_656E_7473";

/// The self-contained form's generator and source: the link's bytes made
/// as `engine::content` makes them, cut as `engine::source` cuts them
/// (SplitMix64, multiply-shift into the range), every read call counted.
fn contained_source(p: &Params, tokio: bool) -> String {
    let mut out = String::new();
    let seeded_chunks = matches!(p.chunk, ChunkModel::Uniform { .. });
    let seeded_content = matches!(p.workload, Workload::Lines | Workload::Frames);
    let range = |out: &mut String, name: &str, key: &str, min: u64, max: u64, doc: &str| {
        size_const(out, &format!("{name}_MIN"), min, key, doc);
        size_const(out, &format!("{name}_MAX"), max, key, &format!("The most bytes of one, as {name}_MIN the least."));
    };
    match p.chunk {
        ChunkModel::Uniform { min, max } => {
            let (lo, hi) = (min.max(1), max.max(min).max(1));
            range(&mut out, "CHUNK", "chunk", lo as u64, hi as u64, "Each read returns at most the next chunk, of CHUNK_MIN..=CHUNK_MAX bytes.");
        }
        ChunkModel::Fixed { size } => size_const(&mut out, "CHUNK", size.max(1) as u64, "chunk", "Each read returns at most this many bytes."),
        ChunkModel::Pipe => size_const(&mut out, "CHUNK", crate::model::PIPE_CHUNK as u64, "chunk", "A pipe: each read returns at most this many bytes."),
        ChunkModel::File => {}
    }
    match p.workload {
        Workload::Lines => range(&mut out, "LINE", "line", p.line.min, p.line.max, "The fewest bytes in a line, its newline left out."),
        Workload::Frames => range(&mut out, "FRAME", "frame", p.frame.min, p.frame.max, "The fewest bytes in a frame's payload."),
        Workload::Scan => size_const(&mut out, "NUL", p.nul, "nul", "Where the one NUL byte is (at or past the end: none)."),
        _ => {}
    }
    if seeded_chunks || seeded_content {
        let _ = writeln!(out, "/// Seed of the chunk sizes and the content; link key `seed`.\nconst SEED: u64 = {};", p.seed);
        out.push_str(
            "
/// SplitMix64, the generator BufLab draws chunk sizes and content with.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in 0..n, by multiply-shift.
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}
",
        );
    }
    out.push('\n');
    let body = match p.workload {
        Workload::Fixed | Workload::Exact | Workload::Bytes | Workload::ToEnd => {
            "/// The link's bytes: 0, 1, …, 255, repeating.\nfn stream() -> Vec<u8> {\n    (0..LEN).map(|i| i as u8).collect()\n}\n".to_string()
        }
        Workload::Scan => "/// The link's bytes: 1, 2, …, 255 repeating (never 0), but for one NUL.
fn stream() -> Vec<u8> {
    let mut out: Vec<u8> = (0..LEN).map(|i| (i % 255) as u8 + 1).collect();
    if let Some(b) = out.get_mut(NUL) {
        *b = 0;
    }
    out
}
"
        .to_string(),
        Workload::Lines => format!(
            "/// The link's bytes: text lines of LINE_MIN..=LINE_MAX bytes, cut from these words.
const TEXT: &[u8] = b\"{}\";

fn stream() -> Vec<u8> {{
    let mut rng = SplitMix64(SEED ^ {CONTENT_SALT});
    let mut out = Vec::with_capacity(LEN);
    while out.len() < LEN {{
        let mut left = (LINE_MIN + rng.below(LINE_MAX - LINE_MIN + 1)).min(LEN - out.len());
        let mut at = rng.below(TEXT.len());
        while left > 0 {{
            let take = left.min(TEXT.len() - at);
            out.extend_from_slice(&TEXT[at..at + take]);
            left -= take;
            at = 0;
        }}
        if out.len() < LEN {{
            out.push(b'\\n');
        }}
    }}
    out
}}
",
            String::from_utf8_lossy(crate::engine::content::TEXT)
        ),
        Workload::Frames => format!(
            "/// The link's bytes: frames of a 4-byte big-endian length and a payload of
/// FRAME_MIN..=FRAME_MAX bytes; the last frame takes what is left.
fn stream() -> Vec<u8> {{
    let mut rng = SplitMix64(SEED ^ {CONTENT_SALT});
    let mut out = Vec::with_capacity(LEN);
    let mut frame = 0u8;
    while out.len() < LEN {{
        let left = LEN - out.len() - 4;
        let mut n = (FRAME_MIN + rng.below(FRAME_MAX - FRAME_MIN + 1)).min(left);
        if left - n < 4 {{
            n = left;
        }}
        out.extend_from_slice(&(n as u32).to_be_bytes());
        out.extend((0..n).map(|i| (i as u8) ^ frame));
        frame = frame.wrapping_add(1);
    }}
    out
}}
"
        ),
    };
    out.push_str(&body);
    let limit = match p.chunk {
        ChunkModel::Uniform { .. } => ".min(CHUNK_MIN + self.chunks.below(CHUNK_MAX - CHUNK_MIN + 1))",
        ChunkModel::Fixed { .. } | ChunkModel::Pipe => ".min(CHUNK)",
        ChunkModel::File => "",
    };
    let _ = write!(
        out,
        "
/// Read calls on the source: BufLab's source reads, the stand-ins for system calls.
static SOURCE_READS: AtomicU64 = AtomicU64::new(0);

/// The source: each read returns what it asks for, at most what is left{}.
struct Source {{
    data: Vec<u8>,
    pos: usize,{}
}}

impl Read for Source {{
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {{
        SOURCE_READS.fetch_add(1, Ordering::Relaxed);
        let left = self.data.len() - self.pos;
        if buf.is_empty() || left == 0 {{
            return Ok(0);
        }}
        let n = buf.len().min(left){limit};
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }}
",
        match p.chunk {
            ChunkModel::File => " (a regular file)",
            _ => " and at most the next chunk",
        },
        if matches!(p.chunk, ChunkModel::Uniform { .. }) { "\n    chunks: SplitMix64," } else { "" },
    );
    if p.chunk == ChunkModel::File {
        out.push_str(
            "
    /// As std's File: it knows its size, reserves it and reads it in one call, then
    /// checks for the end (a Vec filled exactly: with a 32-byte read).
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let (start, size) = (buf.len(), self.data.len() - self.pos);
        buf.reserve(size);
        let start_cap = buf.capacity();
        let most = (size + 1024).next_multiple_of(8192);
        let mut probe = [0u8; 32];
        if size == 0 && buf.capacity() - buf.len() < 32 {
            let n = self.read(&mut probe)?;
            buf.extend_from_slice(&probe[..n]);
            if n == 0 {
                return Ok(0);
            }
        }
        loop {
            if buf.len() == buf.capacity() && buf.capacity() == start_cap {
                let n = self.read(&mut probe)?;
                buf.extend_from_slice(&probe[..n]);
                if n == 0 {
                    return Ok(buf.len() - start);
                }
            }
            if buf.len() == buf.capacity() {
                buf.reserve(32);
            }
            let at = buf.len();
            let want = (buf.capacity() - at).min(most);
            buf.resize(at + want, 0);
            let n = self.read(&mut buf[at..])?;
            buf.truncate(at + n);
            if n == 0 {
                return Ok(buf.len() - start);
            }
        }
    }
",
        );
    }
    out.push_str("}\n");
    if tokio {
        out.push_str(
            "
/// tokio reads the source through its AsyncRead: always ready here.
impl tokio::io::AsyncRead for Source {
    fn poll_read(self: Pin<&mut Self>, _: &mut Context<'_>, buf: &mut tokio::io::ReadBuf<'_>) -> Poll<io::Result<()>> {
        let n = Read::read(self.get_mut(), buf.initialize_unfilled())?;
        buf.advance(n);
        Poll::Ready(Ok(()))
    }
}
",
        );
    }
    out
}

/// The self-contained form's `open`: a fresh source over the link's bytes.
/// With several streams, `open(n)` opens stream `n` (from 1): the same
/// bytes, its chunks drawn with the stream's own seed as BufLab draws them
/// (`engine::source::stream_seed`); opening the first sets the count to 0,
/// so the count is every stream's reads.
fn contained_open(p: &Params) -> String {
    let seeded = matches!(p.chunk, ChunkModel::Uniform { .. });
    if p.streams <= 1 {
        return format!(
            "/// A fresh source over the link's bytes, its read count at 0.\nfn open() -> io::Result<Source> {{\n    \
             SOURCE_READS.store(0, Ordering::Relaxed);\n    Ok(Source {{ data: stream(), pos: 0{} }})\n}}\n\n",
            if seeded { ", chunks: SplitMix64(SEED)" } else { "" }
        );
    }
    let mut out = String::new();
    if seeded {
        out.push_str(
            "/// The chunk seed of stream `n` (from 1), as BufLab seeds each stream's chunks:
/// the first takes SEED itself, the others unrelated seeds drawn from it.
fn stream_seed(n: usize) -> u64 {
    if n == 1 {
        SEED
    } else {
        SplitMix64(SEED ^ ((n - 1) as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)).next()
    }
}

",
        );
    }
    let _ = write!(
        out,
        "/// A fresh source over the link's bytes for stream `n` (from 1); opening the
/// first sets the read count to 0, so it counts the reads of every stream.
fn open(n: usize) -> io::Result<Source> {{
    if n == 1 {{
        SOURCE_READS.store(0, Ordering::Relaxed);
    }}
    Ok(Source {{ data: stream(), pos: 0{} }})
}}

",
        if seeded { ", chunks: SplitMix64(stream_seed(n))" } else { "" }
    );
    out
}

/// The chunking in a few words, for the self-contained program's header.
fn chunks_in_words(chunk: ChunkModel) -> String {
    match chunk {
        ChunkModel::Uniform { min, max } => {
            let preset = chunk.preset_name().map(|n| format!(", `{n}`")).unwrap_or_default();
            format!("reads of at most {}-{} bytes, drawn with the seed{preset}", format_size(min as u64), format_size(max as u64))
        }
        ChunkModel::Fixed { size } => format!("reads of at most {} bytes", format_size(size as u64)),
        ChunkModel::File => "a regular file: each read gets what it asks for".into(),
        ChunkModel::Pipe => "a pipe: reads of at most 64 KiB".into(),
    }
}

/// The Rust Playground with a program in its `code` parameter: stable
/// Rust, release mode (times like BufLab's timed pass), and the edition
/// the programs are written for (`tests/snippet.rs` compiles them with it).
pub const PLAYGROUND_URL: &str = "https://play.rust-lang.org/?version=stable&mode=release&edition=2021&code=";

/// The longest Playground address offered, in bytes. Servers refuse a
/// request line past their buffer (the Playground has answered long `code`
/// links with 414 Request-URI Too Large, rust-lang/rust-playground#439), and
/// nginx's default buffer for one is 8 KiB; 8000 bytes of address leave
/// room for the method and protocol around it.
pub const MAX_PLAYGROUND_URL: usize = 8000;

/// The Code panel's program in the Rust Playground.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Playground {
    /// The self-contained program (it makes the link's bytes itself);
    /// `None` where the link has none (`reason` says why).
    pub program: Option<String>,
    /// The Playground's address with the program in it; `None` where there
    /// is no program or the address would be too long.
    pub url: Option<String>,
    /// Why there is no `url`, in a sentence.
    pub reason: Option<String>,
}

/// The read lab's program in a self-contained form: it makes the link's
/// bytes with BufLab's generator (seed, content, chunking) instead of
/// opening a file or socket, counts its source's read calls and prints
/// them per reader. `Err`: why the link has no such form.
pub fn self_contained(p: &Params) -> Result<String, String> {
    if p.lab != Lab::Read {
        return Err("the write lab's program writes to files of its own; its self-contained form is not written yet".into());
    }
    if p.lives_in_time() {
        return Err(format!(
            "this link's source lives in time (rate {}/s): what a read finds depends on BufLab's clock, which the self-contained \
             program does not keep, so its counts would not be the link's",
            format_size(p.rate)
        ));
    }
    if p.readers.iter().all(|&k| reader_part(k, p, &|_| "app").part.described_only) {
        return Err("the chained reader is BufLab's own type, not a crate the Playground has: its program only describes it".into());
    }
    Ok(read_program(p, Form::SelfContained))
}

/// The self-contained program ([`self_contained`]) and its Playground
/// address, or why there is none.
pub fn playground(p: &Params) -> Playground {
    let program = match self_contained(p) {
        Ok(program) => program,
        Err(reason) => return Playground { program: None, url: None, reason: Some(reason) },
    };
    let url = format!("{PLAYGROUND_URL}{}", percent_encoding::utf8_percent_encode(&program, QUERY_VALUE));
    if url.len() > MAX_PLAYGROUND_URL {
        let reason = format!(
            "the program makes a {}-byte Playground address, over the {MAX_PLAYGROUND_URL} bytes a server is sure to accept: copy it into the Playground by hand",
            url.len()
        );
        return Playground { program: Some(program), url: None, reason: Some(reason) };
    }
    Playground { program: Some(program), url: Some(url), reason: None }
}

/// What a query value escapes: everything but RFC 3986's unreserved
/// characters, so a space is `%20` under every decoder.
const QUERY_VALUE: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::decode as decode_link;

    #[test]
    fn the_read_snippet_carries_cap_and_rs() {
        let p = decode_link("cap=16K&rs=4&rd=unbuffered,std&wl=fixed").params;
        let s = snippet(&p);
        assert!(s.contains("const CAP: usize = 16384; // 16K, link key `cap`"), "{s}");
        assert!(s.contains("const RS: usize = 4; // link key `rs`"), "{s}");
        assert!(s.contains("BufReader::with_capacity(CAP, open()?)"), "{s}");
        assert!(s.contains("let mut buf = [0u8; RS];"), "{s}");
        assert!(s.contains(&link::encode(&p)), "the link is in the header");
    }

    #[test]
    fn constants_appear_only_when_used() {
        // bytes() has no read size; without a buffered reader there is no capacity.
        let s = snippet(&decode_link("rd=unbuffered&wl=bytes").params);
        assert!(!s.contains("const CAP") && !s.contains("const RS"), "{s}");
        assert!(s.contains(".bytes()"), "{s}");
        // scan: RS belongs to the unbuffered reader only.
        let s = snippet(&decode_link("rd=std&wl=scan&cap=1K").params);
        assert!(!s.contains("const RS") && s.contains("fill_buf") && s.contains("= 1024;"), "{s}");
    }

    #[test]
    fn the_source_type_follows_the_chunk_model() {
        assert!(snippet(&decode_link("chunk=file").params).contains("File::open(\"data.bin\")"));
        assert!(snippet(&decode_link("chunk=file&len=64K").params).contains("// The same bytes: buflab stream --out data.bin '#v=1&len=64K&chunk=file&"));
        let s = snippet(&decode_link("chunk=worst").params);
        assert!(s.contains("TcpStream::connect") && s.contains("1-128 bytes (`worst` network)"), "{s}");
    }

    #[test]
    fn the_chained_reader_is_only_described() {
        let s = snippet(&decode_link("rd=chained&wl=frames&pool=off").params);
        assert!(s.lines().filter(|l| l.contains("ChainedReader")).all(|l| l.trim_start().starts_with("//")), "{s}");
        assert!(s.contains("read_range") && s.contains("`pool=off`"), "{s}");
    }

    /// With several streams the program opens `buflab stream --streams`'s
    /// files and reads them round-robin, one workload step per stream.
    #[test]
    fn several_streams_are_read_round_robin_from_their_own_files() {
        let s = snippet(&decode_link("rd=unbuffered,std&wl=fixed&chunk=file&streams=3&len=64K").params);
        for want in [
            "const STREAMS: usize = 3;",
            "File::open(format!(\"data-{stream}.bin\"))",
            "let sources = (1..=STREAMS).map(open).collect::<io::Result<Vec<_>>>()?;",
            "let n = round_robin(sources, step)?;",
            "BufReader::with_capacity(CAP, open(stream)?)",
            "fn round_robin<R>(",
            "buflab stream --streams --out data.bin",
        ] {
            assert!(s.contains(want), "missing {want:?} in\n{s}");
        }
        assert!(!s.contains("fn app") && !s.contains("\"data.bin\""), "{s}");
        let s = snippet(&decode_link("rd=std&wl=bytes&streams=2&len=64K&chunk=poor").params);
        assert!(s.contains("readers.into_iter().map(Read::bytes).collect()") && s.contains("7877 + stream as u16"), "{s}");
        let s = snippet(&decode_link("rd=std,tokio&wl=fixed&streams=2&len=64K&chunk=file").params);
        assert!(s.contains("for stream in 1..=STREAMS {") && s.contains("with_tokio::open(stream).await"), "{s}");
    }

    #[test]
    fn frames_reuse_and_streams_show() {
        let s = snippet(&decode_link("wl=frames&reuse=on&streams=4&len=64K").params);
        assert!(s.contains("payload.resize(len, 0)") && s.contains("4 such streams"), "{s}");
        assert!(snippet(&decode_link("wl=frames").params).contains("vec![0u8; len]"));
    }

    #[test]
    fn async_readers_get_an_async_loop_over_their_own_traits() {
        let s = snippet(&decode_link("rd=std,tokio,futures&wl=scan&chunk=poor&pend=20").params);
        for want in [
            "tokio = { version = \"1\", features = [\"rt\", \"net\", \"fs\", \"io-util\"] }, futures = \"0.3\"",
            "mod with_tokio {",
            "use tokio::io::{AsyncBufRead, AsyncBufReadExt};",
            "tokio::net::TcpStream::connect(\"127.0.0.1:7878\").await",
            "reader.consume(at + 1);",
            "mod with_futures {",
            "reader.consume_unpin(n);",
            "new_current_thread()",
            "futures::executor::block_on(async {",
            "futures::io::AllowStdIo::new(open()?)",
            "fn app_buffered<R: BufRead>",
            "Before 20% of its reads",
        ] {
            assert!(s.contains(want), "missing {want:?} in\n{s}");
        }
        // tokio alone opens its own file: no std open() or std loop.
        let s = snippet(&decode_link("rd=tokio&wl=to_end&chunk=file").params);
        assert!(s.contains("tokio::fs::File::open(\"data.bin\").await") && s.contains("const LEN"), "{s}");
        assert!(!s.contains("\nfn open()") && !s.contains("fn app<R: Read>") && !s.contains("use std::fs"), "{s}");
    }

    #[test]
    fn the_write_snippet_carries_the_write_sizes_and_flavours() {
        let p = decode_link("lab=write&recs=100&icap=0&buf=1K&wf=cursor_vec,mut_slice,bytes_mut&ws=4K&wcap=64K").params;
        let s = snippet(&p);
        for want in [
            "const RECORDS: usize = 100;",
            "const INIT_CAP: usize = 0;",
            "const BUF: usize = 1024; // 1K",
            "const WS: usize = 4096; // 4K",
            "const WCAP: usize = 65536; // 64K",
            "Cursor::new(Vec::with_capacity(INIT_CAP))",
            "let mut rest: &mut [u8] = &mut storage;",
            "BytesMut::with_capacity(INIT_CAP).writer()",
            "BufWriter::with_capacity(WCAP",
            "with_big_endian().with_fixint_encoding()",
        ] {
            assert!(s.contains(want), "missing {want:?} in\n{s}");
        }
        assert!(!s.contains("WriterVec"), "only the chosen flavours");
    }
}
