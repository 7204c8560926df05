// Mutation testing of the page's model and app modules and the baseline
// comparison (`npm run mutants -- web`, scripts/mutants.sh): Stryker plants
// one bug at a time and runs the unit tests that cover it (vitest, the real
// wasm from web/pkg*). Reports go to test-results/mutation/ (ignored).
//
// `--mutate` on the command line narrows a run to files or line ranges
// (`web/src/app/state.ts:616-750`); STRYKER_REPORT names that run's reports
// (test-results/mutation/$STRYKER_REPORT.{json,html}; default `web`).
const report = process.env.STRYKER_REPORT || "web";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.config.ts" },
  // web/src/app/ (issue 52) and the baseline panel: its comparisons, its
  // storage and its DOM (baseline.test.ts runs it in happy-dom).
  mutate: ["web/src/app/**/*.ts", "!web/src/app/**/*.test.ts", "!web/src/app/**/*-fixtures.ts", "web/src/panels/baseline.ts"],
  coverageAnalysis: "perTest",
  // A mutant run only while a module loads (a constant table) would rerun
  // every unit test, the property test among them: left out, and counted as
  // ignored in the report.
  ignoreStatic: true,
  // 2 cores shared: one test process at a time.
  concurrency: 1,
  timeoutMS: 20000,
  reporters: ["clear-text", "progress", "json", "html"],
  jsonReporter: { fileName: `test-results/mutation/${report}.json` },
  htmlReporter: { fileName: `test-results/mutation/${report}.html` },
  tempDirName: "test-results/stryker-tmp",
  // Stryker rewrites the tsconfig's paths into its sandbox through
  // TypeScript's JavaScript API, which TypeScript 7 no longer has; ours has
  // no extends or references to rewrite, so it is given no tsconfig.
  tsconfigFile: "no-tsconfig-for-stryker.json",
  // The sandbox copy needs the page's sources and the built wasm, not the
  // Rust build or the docs.
  ignorePatterns: ["/target", "/crate", "/dist", "/dist-faults", "/dist-bench", "/docs", "/test-results", "/web/pkg-faults", "/web/pkg-bench"],
};
