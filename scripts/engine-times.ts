// `npm run bench:engines`: each engine's first visit (a fresh profile: no
// cache, no service worker) of the default link on the plain static host
// and on the host that sends the isolation headers, timed to Done, in one
// run: rounds of every engine × host, the engines' order rotating and the
// hosts' alternating from round to round, so a busy spell of the machine
// falls on all of them. Prints the table (median and min–max per cell, the
// 1-minute load average over the run) and writes it to
// test-results/engine-times.json, for docs/benchmarks.md.
//
// The time is the page's own mark `buflab:first-full` (from navigation
// start to the first full measurement shown, which is when the status says
// Done), read after Done, so the polling that waits for Done is not in it;
// the wall time from the driver's navigation to Done seen is kept beside it.
//
// BUFLAB_ENGINE_ROUNDS (default 5) sets the rounds.

import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { ISOLATION_HEADERS } from "../web/src/offline/policy";
import { ENGINES, openDriver, type EngineName } from "../web/e2e/engines/driver";
import { doneIn } from "../web/e2e/smoke";
import { startStaticHost, type StaticHost } from "../web/e2e/static-host";

const root = fileURLToPath(new URL("../", import.meta.url));
const ROUNDS = Number(process.env.BUFLAB_ENGINE_ROUNDS ?? 5);
const HOSTS = ["plain", "isolated"] as const;
type HostName = (typeof HOSTS)[number];

interface Sample {
  engine: EngineName;
  host: HostName;
  round: number;
  firstFullMs: number;
  wallMs: number;
  timer: string;
  load1: number;
}

const samples: Sample[] = [];
const versions: Partial<Record<EngineName, string>> = {};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One first visit of `host` in a fresh profile of `engine`. */
async function visit(engine: EngineName, host: StaticHost): Promise<Omit<Sample, "engine" | "host" | "round">> {
  const driver = await openDriver(engine);
  try {
    versions[engine] = driver.version;
    const load1 = loadavg()[0]!;
    const started = Date.now();
    await driver.goto(host.url);
    await driver.waitFor(doneIn, "read", 120_000);
    const wallMs = Date.now() - started;
    const firstFullMs = await driver.evaluate(() => performance.getEntriesByName("buflab:first-full")[0]?.startTime ?? -1, undefined);
    const timer = await driver.text(".status .timer");
    return { firstFullMs: Math.round(firstFullMs), wallMs, timer, load1 };
  } finally {
    await driver.close();
  }
}

let plain: StaticHost;
let isolated: StaticHost;

afterAll(async () => {
  await Promise.all([plain?.close(), isolated?.close()]);
});

it(`times ${ROUNDS} first visits per engine and host, alternating`, { timeout: ROUNDS * 600_000 }, async () => {
  const dist = `${root}dist/`;
  [plain, isolated] = await Promise.all([startStaticHost(dist, "/engines/"), startStaticHost(dist, "/engines/", { headers: ISOLATION_HEADERS })]);
  for (let round = 0; round < ROUNDS; round++) {
    const engines = ENGINES.map((_, i) => ENGINES[(i + round) % ENGINES.length]!);
    const hosts = round % 2 === 0 ? HOSTS : [...HOSTS].reverse();
    for (const engine of engines) {
      for (const host of hosts) {
        const sample = { engine, host, round, ...(await visit(engine, host === "plain" ? plain : isolated)) };
        expect(sample.firstFullMs, `${engine} ${host}: the first-full mark`).toBeGreaterThan(0);
        samples.push(sample);
        console.log(`round ${round + 1}: ${engine} ${host}: first full ${sample.firstFullMs} ms (wall ${sample.wallMs} ms), ${sample.timer}, load ${sample.load1.toFixed(1)}`);
      }
    }
  }

  const loads = samples.map((s) => s.load1);
  const cell = (engine: EngineName, host: HostName) => {
    const mine = samples.filter((s) => s.engine === engine && s.host === host);
    const ms = mine.map((s) => s.firstFullMs);
    return { median: median(ms), min: Math.min(...ms), max: Math.max(...ms), wallMedian: median(mine.map((s) => s.wallMs)), timer: mine.at(-1)?.timer ?? "" };
  };
  const table = Object.fromEntries(ENGINES.map((engine) => [engine, Object.fromEntries(HOSTS.map((host) => [host, cell(engine, host)]))]));
  const s = (ms: number): string => (ms / 1000).toFixed(1);
  const lines = [
    `${ROUNDS} rounds, engines rotating and hosts alternating; 1-minute load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (median ${median(loads).toFixed(1)}) on ${process.env.BUFLAB_MACHINE ?? "this machine"}`,
    "",
    "| engine | plain host: first full, median (min–max) | ÷ Chromium | isolated host | ÷ Chromium | timer (plain; isolated) |",
    "| --- | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const engine of ENGINES) {
    const [p, i] = [table[engine]!["plain"]!, table[engine]!["isolated"]!];
    const [cp, ci] = [table["chromium"]!["plain"]!, table["chromium"]!["isolated"]!];
    lines.push(
      `| ${engine} ${versions[engine]} | ${s(p.median)} s (${s(p.min)}–${s(p.max)}) | ${(p.median / cp.median).toFixed(2)}× | ${s(i.median)} s (${s(i.min)}–${s(i.max)}) | ${(i.median / ci.median).toFixed(2)}× | ${p.timer}; ${i.timer} |`,
    );
  }
  console.log(lines.join("\n"));
  mkdirSync(`${root}test-results`, { recursive: true });
  writeFileSync(`${root}test-results/engine-times.json`, `${JSON.stringify({ rounds: ROUNDS, versions, table, samples, markdown: lines }, null, 2)}\n`);
});
