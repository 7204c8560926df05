// How the end-to-end tests start Debian's Chromium (never a downloaded one).
// Root needs --no-sandbox; the networking flags stop Chromium's own
// background requests, which this closed network refuses.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
