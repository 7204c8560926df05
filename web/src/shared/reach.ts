// Whether students in a room can open an address: a page served from this
// machine only (localhost, a loopback address), from a private network's
// address (reachable on that network only), or from a file is named with why,
// so a teacher fixes the address before printing QR codes of it.

/** Why students' devices may not reach `href` (null: a public address they can). */
export function unreachableWhy(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return "it is not an address a browser can open";
  }
  if (url.protocol === "file:") return "it is a file on this computer (file:), which no other device can open";
  if (url.protocol !== "http:" && url.protocol !== "https:") return `its scheme (${url.protocol}) is not one a phone's browser opens`;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\./.test(host) || host === "0.0.0.0") {
    return `${host} is this computer itself: on a student's device it names their own`;
  }
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)) {
      return `${host} is a private network address: only devices on the same network (the same Wi-Fi) can open it`;
    }
  }
  if (/^f[cd][0-9a-f]{2}:/.test(host) || /^fe80:/.test(host)) return `${host} is a private network address: only devices on the same network can open it`;
  if (host.endsWith(".local") || !host.includes(".")) return `${host} is a local name: only devices on the same network may resolve it`;
  return null;
}
