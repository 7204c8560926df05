import { defineConfig } from "vitest/config";

// Unit tests: pure TypeScript plus the real engine loaded from web/pkg with
// initSync (build it first with `npm run wasm`). Node environment, no DOM; a
// test file of the page's wiring asks for happy-dom in its first line
// (`// @vitest-environment happy-dom`).
export default defineConfig({
  test: {
    include: ["web/src/**/*.test.ts"],
    environment: "node",
    // `npm test` runs these beside the end-to-end suite on the same cores: the
    // headline tests' wasm sweeps took 2.3 s there against 0.5 s alone, and a
    // slower machine passes vitest's 5 s default. A limit here catches hangs.
    testTimeout: 30_000,
  },
});
