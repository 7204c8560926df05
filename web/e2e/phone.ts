// What the hosted e2e test and the bench (scripts/bench.mjs, through Vite's
// runnerImport) both say about a student's phone loading the page.

/**
 * Lighthouse's mobile profile ("slow 4G" on a mid-range phone): 150 ms
 * round trips, 1.6 Mbit/s down, 750 kbit/s up, the CPU slowed 4×, a phone's
 * viewport. Applied through Chromium's DevTools protocol
 * (`Network.emulateNetworkConditions`, `Emulation.setCPUThrottlingRate`)
 * before the page starts loading.
 */
export const MOBILE = {
  network: { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 },
  cpuSlowdown: 4,
  viewport: { width: 412, height: 823 },
} as const;

/**
 * A timing build's wasm, as the build names it: the one the link's workload
 * needs downloads beside the first count once the counting build has arrived
 * (engine/spawn.ts `prefetchEngine`), so it is not one of the first
 * numbers' files.
 */
export const TIMING_WASM = /\/buflab_timing_bg-[^/]+\.wasm$/;
