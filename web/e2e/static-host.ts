// A plain static host for the end-to-end tests and the bench: it serves
// dist/ under a sub-path and sends only what any static server sends
// (Content-Type, Content-Length, Last-Modified, 304 on If-Modified-Since),
// the way `python3 -m http.server` does. No COOP/COEP, no CSP header:
// cross-origin isolation must come from the service worker, as on GitHub
// Pages (unless `headers` adds them: a host that sends the isolation headers). No compression either, unless `compress` is set: then a file's
// `.gz` copy (web/build/precompress.ts) goes to every browser that accepts
// gzip, as GitHub Pages compresses what it serves, or with "brotli" its
// `.br` copy to a browser that accepts br (as Netlify, Caddy's
// `precompressed` and nginx's brotli_static do; Chromium asks for br from
// localhost too), the `.gz` copy to one that does not.
//
// It logs every request it answers (for the byte budget and for "nothing
// left the origin"), and `down` makes it drop every connection, like a
// workshop's Wi-Fi going away.

import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { gzipSync } from "node:zlib";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".png": "image/png",
};

/** The precompressed copies a host may send (web/build/precompress.ts), the preferred first. */
const COPIES = [
  { encoding: "br", ending: ".br", accepted: /\bbr\b/ },
  { encoding: "gzip", ending: ".gz", accepted: /\bgzip\b/ },
] as const;

export interface Served {
  path: string;
  status: number;
  /** Body bytes sent (the precompressed copy's, when that was sent). */
  bytes: number;
  /** The body's size gzipped (level 9), as a host that compresses would send it. */
  gzipBytes: number;
  /** When the request arrived (wall clock, ms since the epoch). */
  at: number;
}

export interface StaticHost {
  /** The page's address, ending in '/'. */
  readonly url: string;
  readonly origin: string;
  /** Every request answered, in order. */
  readonly log: Served[];
  /** When true, every connection is dropped without an answer. */
  down: boolean;
  close(): Promise<void>;
}

export interface HostOptions {
  /** Port 0 (the default) takes a free one. */
  port?: number;
  /**
   * Send a file's precompressed copy, where there is one, to a browser that
   * accepts its encoding: `true` the `.gz` copy, "brotli" the `.br` copy
   * first.
   */
  compress?: boolean | "brotli";
  /** Headers sent with every file besides the plain ones (the isolation headers, for a host that sends them). */
  headers?: Readonly<Record<string, string>>;
}

/** Serves `root` at http://127.0.0.1:<port><mount> (mount like "/some/sub/path/"). */
export async function startStaticHost(root: string, mount: string, { port = 0, compress = false, headers: extra = {} }: HostOptions = {}): Promise<StaticHost> {
  const log: Served[] = [];
  const gzipCache = new Map<string, number>();
  const state = { down: false };

  const server: Server = createServer((request, response) => {
    if (state.down) {
      request.socket.destroy();
      return;
    }
    const at = Date.now();
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://host").pathname);
    const answer = (status: number, body: Buffer, headers: Record<string, string | number> = {}): void => {
      const isBody = request.method !== "HEAD" && status !== 304;
      response.writeHead(status, { "Content-Length": isBody ? body.length : 0, ...headers });
      response.end(isBody ? body : undefined);
      let gzipBytes = 0;
      if (isBody && body.length > 0) {
        const key = `${path}:${body.length}`;
        gzipBytes = gzipCache.get(key) ?? gzipSync(body, { level: 9 }).length;
        gzipCache.set(key, gzipBytes);
      }
      log.push({ path, status, bytes: isBody ? body.length : 0, gzipBytes, at });
    };
    if (`${path}/` === mount) {
      answer(301, Buffer.alloc(0), { Location: mount });
      return;
    }
    if (!path.startsWith(mount) || (request.method !== "GET" && request.method !== "HEAD")) {
      answer(404, Buffer.from("not found"), { "Content-Type": "text/plain" });
      return;
    }
    let file = normalize(join(root, path.slice(mount.length)));
    if (!file.startsWith(normalize(root + sep)) && file !== normalize(root)) {
      answer(404, Buffer.from("not found"), { "Content-Type": "text/plain" });
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, "index.html");
      const stat = statSync(file);
      const modified = new Date(Math.floor(stat.mtimeMs / 1000) * 1000);
      const since = request.headers["if-modified-since"];
      const headers = {
        "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
        "Last-Modified": modified.toUTCString(),
        ...extra,
      };
      if (since && Date.parse(since) >= modified.getTime()) {
        answer(304, Buffer.alloc(0), headers);
        return;
      }
      const accepted = String(request.headers["accept-encoding"] ?? "");
      const copies = compress === "brotli" ? COPIES : compress ? COPIES.filter((c) => c.encoding === "gzip") : [];
      const copy = copies.find((c) => c.accepted.test(accepted) && existsSync(`${file}${c.ending}`));
      if (copy !== undefined) {
        answer(200, readFileSync(`${file}${copy.ending}`), { ...headers, "Content-Encoding": copy.encoding, Vary: "Accept-Encoding" });
        return;
      }
      answer(200, readFileSync(file), headers);
    } catch {
      answer(404, Buffer.from("not found"), { "Content-Type": "text/plain" });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}${mount}`,
    origin,
    log,
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
      // Kept-alive connections would otherwise still be answered.
      if (value) server.closeAllConnections();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
