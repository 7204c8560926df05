// js-aruco2 (the room's marker detector) is a browser script that hangs its
// objects on the top-level `this` and requires its one neighbour: Node reads
// it as CommonJS (`this` is `module.exports`), but the bundler reads it as an
// ES module, where `this` is undefined. This plugin gives its two files
// CommonJS exports, so the page's and the worker's bundles import them as
// Node does. It changes nothing else in them.

import type { Plugin } from "vite";

const EXPORTS: [RegExp, [string, string][]][] = [
  [
    /js-aruco2[\\/]src[\\/]aruco\.js$/,
    [
      ["var CV = this.CV || require('./cv').CV;", "var CV = require('./cv').CV;"],
      ["this.AR = AR;", "module.exports.AR = AR;"],
    ],
  ],
  [/js-aruco2[\\/]src[\\/]cv\.js$/, [["this.CV = CV;", "module.exports.CV = CV;"]]],
];

export function arucoExports(): Plugin {
  return {
    name: "buflab-js-aruco2",
    enforce: "pre",
    transform(code, id) {
      const file = EXPORTS.find(([test]) => test.test(id));
      if (!file) return null;
      let out = code;
      for (const [from, to] of file[1]) {
        if (!out.includes(from)) throw new Error(`js-aruco2 changed: "${from}" is no longer in ${id} (web/build/js-aruco2.ts)`);
        out = out.replace(from, to);
      }
      return { code: out, map: null };
    },
  };
}
