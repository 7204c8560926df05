// How Debian's Chromium is started for the tests (never a downloaded one).
// Root needs --no-sandbox; the networking flags stop Chromium's own
// background requests, which this closed network refuses.

import type { LaunchOptions } from "playwright-core";

export const CHROMIUM: LaunchOptions = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};
