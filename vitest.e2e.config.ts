import { defineConfig } from "vitest/config";

// End-to-end tests: the built page (dist/, from `npm run build`) served by
// `vite preview` and driven by headless Chromium through playwright-core;
// the smoke set (web/e2e/smoke.ts) in Firefox and WebKit too, each file
// serving dist/ from hosts of its own (web/e2e/engines/ drives each engine).
// global-setup.ts builds the page, starts the server and the one Chromium
// all files share, once for the run (it is the root's, not a project's: a
// project's own globalSetup would run once per project).
//
// Files run two at a time: a file mostly waits on the page's measurements
// (their samples are time-budgeted), using about half of one core. Files
// that hold a wall-clock bound run after the others, one at a time:
// `hosted` (first results within 5 s), `faults` (Stop within 1 s),
// `calibrate` (its reads are timed), `warm` (a warm-up that must see V8's
// optimized code arrive), `sweep` (no long task over 200 ms while points arrive).
const ALONE = ["web/e2e/hosted.test.ts", "web/e2e/warm.test.ts", "web/e2e/faults.test.ts", "web/e2e/calibrate.test.ts", "web/e2e/sweep.test.ts", "web/e2e/room.test.ts"];

const shared = {
  environment: "node",
  testTimeout: 120_000,
  hookTimeout: 180_000,
  // On a loaded 2-core machine (CI, or a full `npm test`) a failed test runs
  // once more; vitest's report still names every retry, so a flaky test is
  // seen, and a test that fails twice fails the run.
  retry: 1,
} as const;

export default defineConfig({
  test: {
    globalSetup: ["web/e2e/global-setup.ts"],
    maxWorkers: 2,
    projects: [
      {
        test: { ...shared, name: "e2e", include: ["web/e2e/**/*.test.ts"], exclude: ALONE, sequence: { groupOrder: 0 } },
      },
      {
        test: { ...shared, name: "e2e-alone", include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
