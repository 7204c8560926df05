//! One line of `strace` output, taken apart no further than the reader
//! needs: the prefix (`-f`'s process id, a `-t`/`-tt`/`-ttt`/`-r` time),
//! then a system call with its arguments and result, half of a split call,
//! a signal, an exit, strace's own words, or a row of its `-c` count.
//!
//! Nothing here allocates: every part is a slice of the line. Quoted
//! strings are skipped by their quotes and escapes (data strings may hold
//! any byte strace escapes, `)` and `,` included), and `-y`'s annotations
//! (`3</etc/hosts>`, `4<TCP:[1.2.3.4:80->5.6.7.8:9]>`) by their brackets.

use memchr::{memchr2, memrchr};

/// What precedes the call on a line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Prefix {
    /// `-f`'s process (thread) id: `1234 read(…` or `[pid  1234] read(…`.
    pub pid: Option<u64>,
    pub time: Option<Stamp>,
}

/// A line's time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stamp {
    /// `-t`/`-tt`: seconds since midnight.
    OfDay(f64),
    /// `-ttt`: seconds since the epoch.
    Epoch(f64),
    /// `-r`: seconds since the previous line.
    Relative(f64),
}

/// What a call returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome<'a> {
    /// A number, with `-y`'s annotation if it is a descriptor
    /// (`= 3</etc/hosts>`).
    Value { n: i64, annotation: Option<&'a [u8]> },
    /// `= -1 EAGAIN (…)`, or `= ? ERESTARTSYS (…)`: the error's name.
    Error(&'a [u8]),
    /// `= ?` alone: the call never returned (its process exited).
    Unknown,
    /// Anything else after `=` (a pointer, flags): not needed here.
    Other,
}

/// A line without its prefix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Body<'a> {
    /// `name(args) = result` (with `-T`'s time spent, if any).
    Call { name: &'a [u8], args: &'a [u8], outcome: Outcome<'a>, duration: Option<f64> },
    /// `name(args <unfinished ...>`: the first half of a split call.
    Unfinished { name: &'a [u8], args: &'a [u8] },
    /// `<... name resumed>rest`: the second half.
    Resumed { name: &'a [u8], rest: &'a [u8] },
    /// `--- SIGCHLD {…} ---`.
    Signal,
    /// `+++ exited with 0 +++`, `+++ killed by SIGKILL +++`.
    Exit,
    /// strace's own words (`strace: Process 12 attached`, `[ Process … ]`).
    Message,
    /// `% time     seconds  usecs/call     calls    errors syscall`: a `-c` count follows.
    SummaryHeader,
    /// A line of dashes in a `-c` count.
    SummaryRule,
    /// A row of a `-c` count (`total` included).
    SummaryRow { syscall: &'a [u8], calls: u64, errors: u64 },
    Blank,
    /// `name(args` with neither a result nor `<unfinished ...>`: cut off.
    Truncated,
    /// Nothing strace prints.
    NotStrace,
}

/// Reads one line (without its newline).
pub fn parse(line: &[u8]) -> (Prefix, Body<'_>) {
    let (prefix, rest) = prefix(line);
    (prefix, body(rest))
}

/// The process id and time before the call, and what follows them.
fn prefix(mut s: &[u8]) -> (Prefix, &[u8]) {
    let mut p = Prefix::default();
    s = trim_start(s);
    if let Some(rest) = s.strip_prefix(b"[pid ") {
        if let Some(end) = rest.iter().position(|&b| b == b']') {
            p.pid = number(trim(&rest[..end]));
            s = trim_start(&rest[end + 1..]);
        }
    }
    // At most a pid (digits alone), a time, and `-i`'s or `-n`'s `[…]`.
    for _ in 0..3 {
        let end = s.iter().position(|&b| b == b' ').unwrap_or(s.len());
        let token = &s[..end];
        if token.is_empty() || end == s.len() {
            break;
        }
        if p.pid.is_none() && p.time.is_none() && token.iter().all(u8::is_ascii_digit) {
            p.pid = number(token);
        } else if p.time.is_none() && token[0].is_ascii_digit() && token.iter().all(|&b| b.is_ascii_digit() || b == b'.' || b == b':') {
            p.time = stamp(token);
            if p.time.is_none() {
                break;
            }
        } else if token[0] == b'[' && !s.starts_with(b"[ Process") {
            match s.iter().position(|&b| b == b']') {
                Some(close) => {
                    s = trim_start(&s[close + 1..]);
                    continue;
                }
                None => break,
            }
        } else {
            break;
        }
        s = trim_start(&s[end..]);
    }
    (p, s)
}

fn stamp(token: &[u8]) -> Option<Stamp> {
    if token.contains(&b':') {
        let mut parts = token.splitn(3, |&b| b == b':');
        let h = decimal(parts.next()?)?;
        let m = decimal(parts.next()?)?;
        let s = decimal(parts.next()?)?;
        return Some(Stamp::OfDay(h * 3600.0 + m * 60.0 + s));
    }
    let v = decimal(token)?;
    // `-ttt` prints seconds since 1970; `-r` the (small) gap since the
    // previous line.
    Some(if v >= 1e8 { Stamp::Epoch(v) } else { Stamp::Relative(v) })
}

/// `123` or `123.456789` (digits, at most one point; what strace prints
/// for times), read without going through text.
pub fn decimal(s: &[u8]) -> Option<f64> {
    let (whole, fraction) = match s.iter().position(|&b| b == b'.') {
        Some(dot) => (&s[..dot], &s[dot + 1..]),
        None => (s, &[][..]),
    };
    if whole.is_empty() || whole.len() > 15 || fraction.len() > 15 {
        return None;
    }
    let digits = |d: &[u8]| d.iter().try_fold(0u64, |n, &b| b.is_ascii_digit().then(|| n * 10 + u64::from(b - b'0')));
    let w = digits(whole)? as f64;
    let f = digits(fraction)? as f64 / 10f64.powi(fraction.len() as i32);
    Some(w + f)
}

fn body(s: &[u8]) -> Body<'_> {
    let s = trim_end(s);
    if s.is_empty() {
        return Body::Blank;
    }
    if s.starts_with(b"--- ") {
        return Body::Signal;
    }
    if s.starts_with(b"+++ ") {
        return Body::Exit;
    }
    if s.starts_with(b"strace: ") || s.starts_with(b"[ Process") || s.starts_with(b"System call usage summary") {
        return Body::Message;
    }
    if let Some(rest) = s.strip_prefix(b"<... ") {
        let Some(end) = find(rest, b" resumed>") else { return Body::NotStrace };
        let name = &rest[..end];
        if !is_name(name) {
            return Body::NotStrace;
        }
        return Body::Resumed { name, rest: &rest[end + b" resumed>".len()..] };
    }
    if s.starts_with(b"% time") {
        return Body::SummaryHeader;
    }
    if s.iter().all(|&b| b == b'-' || b == b' ') {
        return Body::SummaryRule;
    }
    call(s)
}

/// `name(args) = result`, or half of one.
pub fn call(s: &[u8]) -> Body<'_> {
    let Some(open) = s.iter().position(|&b| b == b'(') else { return Body::NotStrace };
    let name = &s[..open];
    if !is_name(name) {
        return Body::NotStrace;
    }
    let inner = &s[open + 1..];
    let Some(close) = scan(inner, |_| {}) else {
        const UNFINISHED: &[u8] = b"<unfinished ...>";
        return match inner.strip_suffix(UNFINISHED) {
            Some(args) => Body::Unfinished { name, args },
            None => Body::Truncated,
        };
    };
    let args = &inner[..close];
    let after = trim_start(&inner[close + 1..]);
    let Some(result) = after.strip_prefix(b"=") else { return Body::Truncated };
    let (result, duration) = duration(trim(result));
    Body::Call { name, args, outcome: outcome(result), duration }
}

/// `-T`'s ` <0.000123>` at the end of a line, split off.
fn duration(s: &[u8]) -> (&[u8], Option<f64>) {
    if s.last() == Some(&b'>') {
        if let Some(open) = memrchr(b'<', s) {
            let inside = &s[open + 1..s.len() - 1];
            let spaced = open > 0 && s[open - 1] == b' ';
            if spaced && !inside.is_empty() && inside.iter().all(|&b| b.is_ascii_digit() || b == b'.') {
                return (trim_end(&s[..open]), decimal(inside));
            }
        }
    }
    (s, None)
}

fn outcome(s: &[u8]) -> Outcome<'_> {
    if let Some(rest) = s.strip_prefix(b"?") {
        return match word(trim_start(rest)) {
            [] => Outcome::Unknown,
            w => Outcome::Error(w),
        };
    }
    if let Some(rest) = s.strip_prefix(b"-1 ") {
        let w = word(trim_start(rest));
        if !w.is_empty() && w[0].is_ascii_uppercase() {
            return Outcome::Error(w);
        }
    }
    let digits = s.iter().take_while(|&&b| b.is_ascii_digit() || b == b'-').count();
    let Some(n) = signed(&s[..digits]) else {
        return Outcome::Other;
    };
    let rest = &s[digits..];
    if rest.first() == Some(&b'x') {
        return Outcome::Other; // 0x… : a pointer
    }
    let annotation = rest.strip_prefix(b"<").and_then(|r| r.strip_suffix(b">").or_else(|| annotation_end(r).map(|e| &r[..e])));
    Outcome::Value { n, annotation }
}

/// The leading run of characters of an errno name (`EAGAIN`, `ERESTARTSYS`).
fn word(s: &[u8]) -> &[u8] {
    let end = s.iter().position(|&b| !(b.is_ascii_alphanumeric() || b == b'_')).unwrap_or(s.len());
    &s[..end]
}

/// A row of strace's `-c` table: `% time  seconds  usecs/call  calls
/// [errors]  syscall` (the `total` row too). Read only after its header
/// ([`Body::SummaryHeader`]): its numbers would pass for a prefix.
pub fn summary_row(s: &[u8]) -> Option<Body<'_>> {
    let text = std::str::from_utf8(trim(s)).ok()?;
    let s = trim(s);
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    let (numbers, name) = match fields.as_slice() {
        [n @ .., name] if (4..=5).contains(&n.len()) => (n, *name),
        _ => return None,
    };
    if !numbers[0].contains('.') || !numbers[1].contains('.') {
        return None;
    }
    let percent: f64 = numbers[0].parse().ok()?;
    let _seconds: f64 = numbers[1].parse().ok()?;
    if !(0.0..=100.0).contains(&percent) || !numbers[2..].iter().all(|n| n.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    if !is_name(name.as_bytes()) {
        return None;
    }
    let calls = numbers[3].parse().ok()?;
    let errors = numbers.get(4).map_or(Some(0), |e| e.parse().ok())?;
    let at = text.rfind(name)?;
    Some(Body::SummaryRow { syscall: &s[at..at + name.len()], calls, errors })
}

/// A system call's name: lower-case letters, digits and `_`, starting with a letter.
fn is_name(s: &[u8]) -> bool {
    !s.is_empty() && s.len() <= 64 && s[0].is_ascii_lowercase() && s.iter().all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Walks a call's arguments from just after its `(`: skips strings,
/// brackets and `-y` annotations, calls `comma` at each comma between
/// arguments, and returns the index of the `)` that closes the call
/// (`None`: the line ends first).
pub fn scan(s: &[u8], mut comma: impl FnMut(usize)) -> Option<usize> {
    let mut depth = 0u32;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'"' => i = string_end(s, i + 1)?,
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth > 0 => depth -= 1,
            b')' => return Some(i),
            b',' if depth == 0 => comma(i),
            b'<' if i > 0 && s[i - 1].is_ascii_digit() => {
                if let Some(end) = annotation_end(&s[i + 1..]) {
                    i += end + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the `"` that closes a string starting at `from`.
fn string_end(s: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let at = from + memchr2(b'"', b'\\', &s[from..])?;
        if s[at] == b'"' {
            return Some(at);
        }
        from = at + 2;
        if from > s.len() {
            return None;
        }
    }
}

/// Where a `-y` annotation's text ends (its closing `>`), in `s` which
/// starts just after its `<`: the first `>` that is followed by the end or
/// by what may follow an argument, so `->` inside a socket's addresses is
/// passed over.
fn annotation_end(s: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = s[from..].iter().position(|&b| b == b'>') {
        let at = from + at;
        match s.get(at + 1) {
            None | Some(b',' | b')' | b' ' | b']' | b'}') => return Some(at),
            _ => from = at + 1,
        }
    }
    None
}

/// The top-level arguments of a call, trimmed (at most `N`; the rest are
/// left in the last one).
pub fn args<const N: usize>(s: &[u8]) -> ([&[u8]; N], usize) {
    let mut out: [&[u8]; N] = [&[]; N];
    let mut count = 0;
    let mut start = 0;
    let mut cuts = [0usize; N];
    let mut found = 0;
    // `scan` stops at a `)` closing the call; here there is none.
    let _ = scan(s, |at| {
        if found + 1 < N {
            cuts[found] = at;
            found += 1;
        }
    });
    for &cut in &cuts[..found] {
        out[count] = trim(&s[start..cut]);
        count += 1;
        start = cut + 1;
    }
    let last = trim(&s[start..]);
    if !last.is_empty() || count > 0 {
        out[count] = last;
        count += 1;
    }
    (out, count)
}

/// A descriptor argument: its number and `-y`'s annotation (`3</etc/hosts>`).
pub fn fd(arg: &[u8]) -> Option<(i64, Option<&[u8]>)> {
    let digits = arg.iter().enumerate().take_while(|&(i, &b)| b.is_ascii_digit() || (i == 0 && b == b'-')).count();
    let n = signed(&arg[..digits])?;
    let rest = &arg[digits..];
    if rest.is_empty() {
        return Some((n, None));
    }
    let inner = rest.strip_prefix(b"<")?;
    let end = annotation_end(inner)?;
    Some((n, Some(&inner[..end])))
}

/// A plain decimal number.
pub fn number(s: &[u8]) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    s.iter().try_fold(0u64, |n, &b| if b.is_ascii_digit() { n.checked_mul(10)?.checked_add(u64::from(b - b'0')) } else { None })
}

/// A decimal number with an optional `-`.
fn signed(s: &[u8]) -> Option<i64> {
    match s.strip_prefix(b"-") {
        Some(digits) => number(digits).and_then(|n| i64::try_from(n).ok()).map(|n| -n),
        None => number(s).and_then(|n| i64::try_from(n).ok()),
    }
}

/// The sum of the `iov_len=` fields in `s` (`readv`'s and `recvmsg`'s
/// buffers), skipping strings; `None` when there is none.
pub fn iov_total(s: &[u8]) -> Option<u64> {
    const KEY: &[u8] = b"iov_len=";
    let mut total: Option<u64> = None;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'"' => i = string_end(s, i + 1)? + 1,
            b'i' if s[i..].starts_with(KEY) => {
                let digits = &s[i + KEY.len()..];
                let end = digits.iter().position(|b| !b.is_ascii_digit()).unwrap_or(digits.len());
                total = Some(total.unwrap_or(0).saturating_add(number(&digits[..end])?));
                i += KEY.len() + end;
            }
            _ => i += 1,
        }
    }
    total
}

/// A quoted string argument's text between its quotes (escapes kept as
/// strace printed them).
pub fn quoted(arg: &[u8]) -> Option<&[u8]> {
    let inner = arg.strip_prefix(b"\"")?;
    let end = string_end(inner, 0)?;
    Some(&inner[..end])
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

pub fn trim(s: &[u8]) -> &[u8] {
    trim_end(trim_start(s))
}

fn trim_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &s[n..]
}

fn trim_end(s: &[u8]) -> &[u8] {
    let n = s.iter().rev().take_while(|b| b.is_ascii_whitespace()).count();
    &s[..s.len() - n]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call_of(line: &str) -> (Option<u64>, String, String, Outcome<'_>, Option<f64>) {
        match parse(line.as_bytes()) {
            (p, Body::Call { name, args, outcome, duration }) => (
                p.pid,
                String::from_utf8_lossy(name).into_owned(),
                String::from_utf8_lossy(args).into_owned(),
                outcome,
                duration,
            ),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn decimals_as_strace_prints_times() {
        assert_eq!(decimal(b"12"), Some(12.0));
        assert_eq!(decimal(b"0.000123"), Some(0.000123));
        assert_eq!(decimal(b"1700000000.123456"), Some(1_700_000_000.123456));
        for bad in [&b""[..], b".5", b"1.2.3", b"1e5", b"-1", b"12345678901234567"] {
            assert_eq!(decimal(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn a_plain_read() {
        let (pid, name, args, outcome, duration) = call_of(r#"read(3, "\177ELF\2\1"..., 832) = 832"#);
        assert_eq!((pid, name.as_str(), duration), (None, "read", None));
        assert_eq!(args, r#"3, "\177ELF\2\1"..., 832"#);
        assert_eq!(outcome, Outcome::Value { n: 832, annotation: None });
    }

    #[test]
    fn every_prefix_and_suffix_strace_prints() {
        let line = r#"15462 02:54:12.089460 read(0<pipe:[25513]>, "a)b,\"c"..., 16384) = 16384 <0.019991>"#;
        let (p, body) = parse(line.as_bytes());
        assert_eq!(p.pid, Some(15462));
        assert!(matches!(p.time, Some(Stamp::OfDay(t)) if (t - 10452.089460).abs() < 1e-6));
        let Body::Call { args, duration, .. } = body else { panic!("{body:?}") };
        assert_eq!(duration, Some(0.019991));
        let (a, n) = super::args::<4>(args);
        assert_eq!(n, 3);
        assert_eq!(fd(a[0]), Some((0, Some(&b"pipe:[25513]"[..]))));
        assert_eq!(a[2], b"16384");
        let (p, _) = parse(b"[pid  1234] 1700000000.123456 read(3, \"\", 10) = 0");
        assert_eq!(p.pid, Some(1234));
        assert!(matches!(p.time, Some(Stamp::Epoch(_))));
        let (p, _) = parse(b"     0.000123 read(3, \"\", 10) = 0");
        assert_eq!((p.pid, p.time), (None, Some(Stamp::Relative(0.000123))));
        let (p, body) = parse(b"12:00:01 [00007f0000000000] read(3, \"\", 10) = 0");
        assert_eq!(p.time, Some(Stamp::OfDay(43201.0)));
        assert!(matches!(body, Body::Call { .. }));
    }

    #[test]
    fn results_errors_and_annotations() {
        let (.., outcome, _) = call_of("read(3, 0x7ffd1000, 4096) = -1 EAGAIN (Resource temporarily unavailable)");
        assert_eq!(outcome, Outcome::Error(b"EAGAIN"));
        let (.., outcome, _) = call_of("read(0, 0x7ffd1000, 1024) = ? ERESTARTSYS (To be restarted if SA_RESTART is set)");
        assert_eq!(outcome, Outcome::Error(b"ERESTARTSYS"));
        let (.., outcome, _) = call_of("exit_group(0) = ?");
        assert_eq!(outcome, Outcome::Unknown);
        let (.., outcome, _) = call_of(r#"openat(AT_FDCWD</tmp>, "/tmp/f.bin", O_RDONLY) = 3</tmp/f.bin> <0.001760>"#);
        assert_eq!(outcome, Outcome::Value { n: 3, annotation: Some(b"/tmp/f.bin") });
        let (.., outcome, _) = call_of("mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, 3, 0) = 0x7f0000000000");
        assert_eq!(outcome, Outcome::Other);
        let (.., args, outcome, _) = call_of(r#"read(4<TCP:[127.0.0.1:80->127.0.0.1:5000]>, "x", 10) = 1"#);
        assert_eq!(outcome, Outcome::Value { n: 1, annotation: None });
        let (a, _) = super::args::<3>(args.as_bytes());
        assert_eq!(fd(a[0]).unwrap().1, Some(&b"TCP:[127.0.0.1:80->127.0.0.1:5000]"[..]));
    }

    #[test]
    fn halves_of_a_split_call() {
        let (p, body) = parse(b"15462 read(0<pipe:[25513]>,  <unfinished ...>");
        assert_eq!(p.pid, Some(15462));
        assert_eq!(body, Body::Unfinished { name: b"read", args: b"0<pipe:[25513]>,  " });
        let (_, body) = parse(br#"15462 <... read resumed>"\371g"..., 16384) = 1696"#);
        assert_eq!(body, Body::Resumed { name: b"read", rest: br#""\371g"..., 16384) = 1696"# });
    }

    #[test]
    fn other_lines() {
        for (line, want) in [
            ("15460 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---", Body::Signal),
            ("15461 +++ exited with 0 +++", Body::Exit),
            ("+++ killed by SIGKILL +++", Body::Exit),
            ("strace: Process 12 attached", Body::Message),
            ("% time     seconds  usecs/call     calls    errors syscall", Body::SummaryHeader),
            ("------ ----------- ----------- --------- --------- ----------------", Body::SummaryRule),
            ("", Body::Blank),
            ("read(3, \"abc", Body::Truncated),
            ("read(3, \"abc\", 3) ", Body::Truncated),
            ("hello world", Body::NotStrace),
            ("Read(3) = 1", Body::NotStrace),
            ("<... read resumed", Body::NotStrace),
        ] {
            assert_eq!(parse(line.as_bytes()).1, want, "{line}");
        }
    }

    #[test]
    fn rows_of_straces_count() {
        assert_eq!(summary_row(b"  0.00    0.000000           0        11           read"), Some(Body::SummaryRow { syscall: b"read", calls: 11, errors: 0 }));
        assert_eq!(
            summary_row(b" 12.50    0.000100           3        31        13 openat"),
            Some(Body::SummaryRow { syscall: b"openat", calls: 31, errors: 13 })
        );
        assert!(summary_row(b"100.00    0.000000           0        62        13 total").is_some());
        assert_eq!(summary_row(b"read(3, \"\", 1) = 0"), None);
        assert_eq!(summary_row(b"1 2 3 4 read"), None, "no percentage");
    }

    #[test]
    fn iov_lengths_add_up_and_strings_are_skipped() {
        assert_eq!(iov_total(br#"[{iov_base="ab", iov_len=2}, {iov_base="iov_len=9", iov_len=5}]"#), Some(7));
        assert_eq!(iov_total(b"0x1000"), None);
        assert_eq!(quoted(br#""/tmp/a \"b\"""#), Some(&br#"/tmp/a \"b\""#[..]));
    }

    #[test]
    fn nothing_panics_on_cut_lines() {
        let line = r#"123 10:00:00.000001 readv(3</a,b>, [{iov_base="x\"", iov_len=2}], 1) = 2 <0.000001>"#;
        for end in 0..=line.len() {
            let _ = parse(&line.as_bytes()[..end]);
            let _ = args::<4>(&line.as_bytes()[..end]);
            let _ = iov_total(&line.as_bytes()[..end]);
        }
    }
}
