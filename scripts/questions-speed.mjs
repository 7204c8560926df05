// How long a build takes to write the fixed-workload lessons' choices and one quiz:
// `node scripts/questions-speed.mjs GLUE.js… [--rounds N]` loads each build
// (wasm-bindgen's glue, its `_bg.wasm` beside it) with initSync and, in
// alternating rounds, times `lesson_choices` of every read lesson of the
// fixed workload (web/src/engine/lessons.gen.json; the ones every build
// with the questions can answer, a timing build of `fixed` included) and
// `quiz` of one link; prints each
// round's milliseconds per build. For comparing the questions build's
// profile (docs/benchmarks.md, "The questions build").

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt < 0 ? 3 : Number(args[roundsAt + 1]);
const glues = args.filter((arg, i) => !arg.startsWith("--") && (roundsAt < 0 || i !== roundsAt + 1));
if (glues.length === 0) {
  console.error("usage: node scripts/questions-speed.mjs GLUE.js… [--rounds N]");
  process.exit(2);
}

const lessons = JSON.parse(readFileSync(new URL("../web/src/engine/lessons.gen.json", import.meta.url), "utf8"));
const read = (Array.isArray(lessons) ? lessons : lessons.lessons).filter((l) => !l.link.includes("lab=write") && !/[#&]wl=(?!fixed\b)/.test(l.link));
const QUIZ = "v=1&len=64K&chunk=poor&seed=42&cap=1K&rs=1&sys=150&rd=unbuffered,std&wl=fixed&quiz=on";

const builds = [];
for (const glue of glues) {
  const engine = await import(pathToFileURL(glue).href);
  engine.initSync({ module: readFileSync(glue.replace(/\.js$/, "_bg.wasm")) });
  if (typeof engine.lesson_choices !== "function") throw new Error(`${glue} has no lesson_choices`);
  builds.push({ glue, engine });
}

for (let round = 1; round <= rounds; round++) {
  for (const { glue, engine } of builds) {
    const started = performance.now();
    for (const lesson of read) engine.lesson_choices(lesson.link, lesson.question.answer);
    const choices = performance.now() - started;
    engine.quiz(QUIZ);
    const quiz = performance.now() - started - choices;
    console.log(`round ${round}  ${glue}: ${read.length} fixed-workload lessons' choices ${choices.toFixed(0)} ms, a quiz ${quiz.toFixed(0)} ms`);
  }
}
