// Mutation testing of web/src/app's pure modules (`npm run mutants -- web`,
// scripts/mutants.sh): Stryker plants one bug at a time and runs the unit
// tests that cover it (vitest, the real wasm from web/pkg). Reports go to
// test-results/mutation/ (ignored).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.config.ts" },
  mutate: ["web/src/app/state.ts", "web/src/app/link.ts", "web/src/app/status.ts"],
  coverageAnalysis: "perTest",
  // 2 cores shared: one test process at a time.
  concurrency: 1,
  timeoutMS: 20000,
  reporters: ["clear-text", "progress", "json", "html"],
  jsonReporter: { fileName: "test-results/mutation/web.json" },
  htmlReporter: { fileName: "test-results/mutation/web.html" },
  tempDirName: "test-results/stryker-tmp",
  // Stryker rewrites the tsconfig's paths into its sandbox through
  // TypeScript's JavaScript API, which TypeScript 7 no longer has; ours has
  // no extends or references to rewrite, so it is given no tsconfig.
  tsconfigFile: "no-tsconfig-for-stryker.json",
  // The sandbox copy needs the page's sources and the built wasm, not the
  // Rust build or the docs.
  ignorePatterns: ["/target", "/crate", "/dist", "/dist-faults", "/dist-bench", "/docs", "/test-results", "/web/pkg-faults", "/web/pkg-bench"],
};
