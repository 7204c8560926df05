// Whether this machine's memcpy has a cliff where the destination lies a
// few bytes past the source modulo a page (docs/benchmarks.md, "A memcpy
// cliff"): copies 16 MiB in 64 KiB pieces (a 64 KiB BufReader refilled
// from a 16 MiB source, as the suite's NUL scan does) into a destination
// at each offset past a page boundary, and prints the best of 15 rounds.
//   cc -O2 -o /tmp/memcpy-cliff scripts/memcpy-cliff.c && /tmp/memcpy-cliff
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(void) {
  const size_t len = 16 << 20, piece = 64 << 10;
  unsigned char *src = aligned_alloc(4096, len + 8192), *dst = aligned_alloc(4096, piece + 8192);
  if (!src || !dst) return 1;
  memset(src, 1, len + 8192);
  memset(dst, 0, piece + 8192);
  const int offsets[] = {0, 1, 8, 16, 24, 31, 32, 33, 64, 2048, 4080, 4095};
  for (size_t k = 0; k < sizeof offsets / sizeof *offsets; k++) {
    double best = 1e9;
    for (int round = 0; round < 15; round++) {
      double start = now_ms();
      for (size_t at = 0; at < len; at += piece) memcpy(dst + offsets[k], src + at, piece);
      double took = now_ms() - start;
      if (took < best) best = took;
    }
    printf("destination %4d bytes past the source's page offset: %.3f ms per 16 MiB (%.3f ns/byte)\n", offsets[k], best, best * 1e6 / len);
  }
  return dst[100] == 2;
}
