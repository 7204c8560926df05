import { defineConfig } from "vitest/config";

// End-to-end tests: the built page (dist/, from `npm run build`) served by
// `vite preview` and driven by headless Chromium through playwright-core.
export default defineConfig({
  test: {
    include: ["web/e2e/**/*.test.ts"],
    environment: "node",
    globalSetup: ["web/e2e/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // One browser, one preview server, 2 cores: run the files one after another.
    fileParallelism: false,
  },
});
