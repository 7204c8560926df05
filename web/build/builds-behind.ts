// Vite plugin for the dev server: the engine's wasm builds it serves while
// they are still being compiled. `npm start` compiles the counting build
// (the first numbers), then starts Vite, and this plugin runs
// `scripts/wasm.sh behind` (the other builds, most needed first) beside it.
// While the builder runs, a build is in once its out dir holds the stamp
// scripts/wasm.sh writes last (`.inputs`). The page asks BUILD_STATE_PATH whether a build is in before
// it fetches it (engine/spawn.ts), asks again each second while it is
// `building`, and says meanwhile which build it waits for; `failed` (with
// the end of the builder's output) and `missing` (no builder) are errors.
// A request for a file of a build not in gets 503 (500, 404) with the same
// word in BUILD_HEADER, never the page's HTML.
//
//   GET /@buflab/build?of=/pkg-timing/fixed/…_bg.wasm ─▶ web/pkg-timing/fixed/.inputs?
//       ─▶ {"state":"in"}, or {"state":"building","message":…} while the builder runs
//
// A build is imported by the page's code before it exists (spawn.ts: its
// wasm's URL), so a path into a build's dir resolves whether the file is
// there or not. No page reloads when a build lands: what the page imported
// of it before was its wasm's URL, which does not change. A build the
// server has already sent files of reloads the page when it changes, as
// any module does (a rebuild after a change to crate/).

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Plugin, ViteDevServer } from "vite";
import { BUILD_HEADER, BUILD_STATE_PATH, type BuildState } from "../src/engine/protocol.js";

/**
 * The nonce of the dev server's own style elements (the CSS a feature's
 * module imports, which Vite injects as a <style>): the page's CSP allows
 * only its own files otherwise. Served by the dev server only: the built
 * page has every style in a file.
 */
const DEV_STYLE_NONCE = "buflab-dev";

/** A build's dir under web/ (`pkg-counts`, `pkg-timing/fixed`), from a path inside it; null outside the builds. */
export function buildDirOf(path: string): string | null {
  const match = /(?:^|\/)(pkg-timing\/[a-z_]+|pkg-[a-z]+)\//.exec(path);
  return match ? match[1]! : null;
}

/**
 * The command that compiles the builds not yet in, from
 * `BUFLAB_BUILD_BEHIND`: `1` (what `npm start` sets) for `bash
 * scripts/wasm.sh behind`, or a JSON array of words (a test's builder);
 * null without it: the builds there are are all there will be.
 */
function builderCommand(value: string | undefined): readonly string[] | null {
  if (value === undefined || value === "") return null;
  return value === "1" ? ["bash", "scripts/wasm.sh", "behind"] : (JSON.parse(value) as string[]);
}

/** The builder's state: running, or how it ended and the end of what it said. */
interface Builder {
  child: ChildProcess;
  exit: number | null;
  tail: string[];
}

export function buildsBehind(): Plugin {
  let web = "";
  let builder: Builder | null = null;
  /** The build dirs whose files the server has sent as modules: a change to one of them reloads the page. */
  const served = new Set<string>();

  /** Whether `dir`'s build is in, and if not why, with the HTTP status its files get meanwhile. */
  const state = (dir: string): BuildState & { status: number } => {
    // Without a builder (`npm run dev`), whatever is there is all there will be.
    if (existsSync(join(web, dir, builder === null ? "" : ".inputs"))) return { state: "in", message: "", status: 200 };
    if (builder === null) return { state: "missing", message: `web/${dir} is not built: run \`npm run wasm\`.`, status: 404 };
    if (builder.exit === null) return { state: "building", message: `web/${dir} is still being built (scripts/wasm.sh, started by npm start).`, status: 503 };
    return { state: "failed", message: `Building web/${dir} failed:\n${builder.tail.join("\n")}`, status: 500 };
  };

  const start = (server: ViteDevServer, command: readonly string[]): void => {
    const [program, ...args] = command;
    // Its own process group, ended with the server: the builder's cargo and
    // rustc are its children.
    const child = spawn(program!, args, { cwd: resolve(web, ".."), detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const current: Builder = { child, exit: null, tail: [] };
    builder = current;
    const log = (chunk: Buffer): void => {
      process.stdout.write(chunk);
      current.tail = [...current.tail, ...chunk.toString().split("\n").filter((line) => line.trim() !== "")].slice(-20);
    };
    child.stdout?.on("data", log);
    child.stderr?.on("data", log);
    child.on("exit", (code, signal) => {
      current.exit = code ?? 128;
      server.config.logger.info(code === 0 ? "the engine's builds are all in" : `the engine's background build ended (${signal ?? `exit ${code}`})`, { timestamp: true });
    });
    child.on("error", (error) => {
      current.exit = 127;
      current.tail = [String(error)];
    });
    const stop = (): void => {
      if (current.exit === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // Already gone.
        }
      }
    };
    // Ctrl-C and a closed terminal end Vite without its own cleanup: the
    // builds end first, then the signal does what it would have.
    const signalled = (signal: NodeJS.Signals): void => {
      stop();
      process.kill(process.pid, signal);
    };
    process.once("exit", stop);
    process.once("SIGINT", signalled);
    process.once("SIGHUP", signalled);
    server.httpServer?.once("close", () => {
      stop();
      process.off("exit", stop);
      process.off("SIGINT", signalled);
      process.off("SIGHUP", signalled);
    });
  };

  return {
    name: "buflab-builds-behind",
    apply: "serve",
    enforce: "pre",
    // The page asks this server whether a build is in (engine/spawn.ts).
    config: () => ({ define: { "import.meta.env.BUFLAB_DEV_SERVER": "true" }, html: { cspNonce: DEV_STYLE_NONCE } }),
    transformIndexHtml: (html) => html.replace("style-src 'self'", `style-src 'self' 'nonce-${DEV_STYLE_NONCE}'`),
    configResolved(config) {
      web = config.root;
    },
    configureServer(server) {
      const command = builderCommand(process.env["BUFLAB_BUILD_BEHIND"]);
      if (command !== null) start(server, command);
      server.middlewares.use((request, response, next) => {
        const url = new URL(request.url ?? "/", "http://x");
        if (url.pathname === BUILD_STATE_PATH) {
          const dir = buildDirOf(url.searchParams.get("of") ?? "");
          const { state: word, message } = dir === null ? { state: "missing", message: "not an engine build" } : state(dir);
          response.setHeader("cache-control", "no-store");
          response.setHeader("content-type", "application/json");
          response.end(JSON.stringify({ state: word, message }));
          return;
        }
        const dir = buildDirOf(url.pathname);
        // A module request (`?import`, `?url`) is the page's code, not the build's file.
        if (dir === null || url.search !== "") return next();
        const now = state(dir);
        if (now.state === "in") return next();
        response.statusCode = now.status;
        response.setHeader(BUILD_HEADER, now.state);
        response.setHeader("cache-control", "no-store");
        response.setHeader("content-type", "text/plain; charset=utf-8");
        response.end(now.message);
      });
    },
    // A path into a build's dir resolves before the build is there (the
    // page's code names its wasm's URL before it is compiled).
    resolveId(source, importer, options) {
      // The dependency scan reads what resolves: a file not there yet it leaves out, as any it cannot resolve.
      if ((options as { scan?: boolean }).scan === true) return null;
      if (importer === undefined || !source.startsWith(".") || buildDirOf(source) === null) return null;
      const [path, query] = source.split("?", 2);
      const file = resolve(dirname(importer.split("?")[0]!), path!);
      if (existsSync(file)) return null;
      return query === undefined ? file : `${file}?${query}`;
    },
    load(id) {
      const dir = buildDirOf(id.split("?")[0]!);
      if (dir === null || id.includes("?") || existsSync(id)) return null;
      return `throw new Error(${JSON.stringify(state(dir).message)});`;
    },
    transform(_code, id) {
      const dir = buildDirOf(id.split("?")[0]!);
      if (dir !== null && !/[?&]url\b/.test(id)) served.add(dir);
      return null;
    },
    // A build landing reloads nothing: the page asks for it when it needs
    // it. One whose files the page has loaded reloads the page, as any module.
    hotUpdate({ file, modules }) {
      const dir = buildDirOf(file);
      if (dir === null || served.has(dir)) return;
      return modules.filter((module) => buildDirOf(module.id ?? "") === null);
    },
  };
}
