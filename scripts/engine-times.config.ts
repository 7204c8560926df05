import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `npm run bench:engines` (scripts/engine-times.ts): the page built and the
// shared Chromium started as for the end-to-end tests (global-setup.ts).
export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    globalSetup: ["web/e2e/global-setup.ts"],
    include: ["scripts/engine-times.ts"],
    environment: "node",
    hookTimeout: 180_000,
  },
});
