#!/usr/bin/env bash
# Writes the screenshots in docs/ (`npm run screenshots`): the end-to-end
# test files that take them, run with BUFLAB_SCREENSHOTS=1, which sends their
# images to docs/ and serves the page on fixed ports (web/e2e/screenshots.ts).
# `npm test` writes the same images to test-results/screenshots/ instead.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

bash scripts/setup.sh --browser
npm run --silent wasm
mapfile -t files < <(grep -l 'shot(' web/e2e/*.test.ts)
BUFLAB_SCREENSHOTS=1 vitest run --config vitest.e2e.config.ts "${files[@]}"
git status --short docs/
