#!/usr/bin/env bash
# Records public/traces/bash-while-read.strace, the shipped log of a real
# program the page's trace panel opens on request (`buflab trace
# public/traces/bash-while-read.strace` prints what the page shows of it;
# crate/tests/trace_parse.rs asserts its figures). The page fetches it only
# when asked; the offline copy caches it with the parts that come after the
# first numbers (web/src/offline/policy.ts: 7 KB gzipped).
#
# The program: bash's `while read` loop over a pipe (cat writes a 1,056-byte
# file into it). `read` must stop at the end of a line, and on a pipe it
# cannot give back what it read past it (the next command would lose those
# bytes), so bash asks for one byte per read(2): 1,057 system calls for
# 1,056 bytes, where a buffered reader would make two.
#
# The exact command is below; the log is written as strace writes it,
# except that the temporary directory's name becomes /tmp/record.
set -euo pipefail
cd "$(dirname "$0")/.."
out=public/traces/bash-while-read.strace
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for i in $(seq 1 24); do printf 'line %02d: bash reads this one byte at a time\n' "$i"; done > "$dir/lines.txt"
(
  cd "$dir"
  strace -f -tt -y -e trace=openat,read,readv,pread64,recvfrom,recvmsg,close -o "$dir/log" \
    bash -c 'cat lines.txt | while read -r line; do :; done'
)
sed "s|$dir|/tmp/record|g" "$dir/log" > "$out"
echo "$out: $(wc -l < "$out") lines, $(wc -c < "$out") bytes"
