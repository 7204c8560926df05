// Where the end-to-end tests' images go. `npm test` leaves the tracked files
// as it found them: the images go to test-results/screenshots/ (ignored).
// `npm run screenshots` (BUFLAB_SCREENSHOTS=1) writes them to docs/, with the
// servers on fixed ports so a link in an image reads the same on every run.

import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** True under `npm run screenshots`. */
export const SCREENSHOTS = process.env.BUFLAB_SCREENSHOTS === "1";

/** The preview server's port under `npm run screenshots` (vite preview's own default); the static host takes the next. */
export const SCREENSHOT_PORT = 4173;

/** The path a test writes the image `name` (such as "sweep-360.png") to. */
export function shot(name: string): string {
  const dir = fileURLToPath(new URL(SCREENSHOTS ? "../../docs/" : "../../test-results/screenshots/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  return dir + name;
}
