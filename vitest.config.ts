import { defineConfig } from "vitest/config";

// Unit tests: pure TypeScript plus the real engine loaded from web/pkg with
// initSync (build it first with `npm run wasm`). Node environment, no DOM.
export default defineConfig({
  test: {
    include: ["web/src/**/*.test.ts"],
    environment: "node",
  },
});
