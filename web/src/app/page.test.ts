// @vitest-environment happy-dom
// The whole page, built by startPage on the page's own markup with the real
// codec, the real read lab and stand-in workers: what a person sees and
// does reaches the workers, and what the workers say reaches the screen.

import { afterEach, describe, expect, it, vi } from "vitest";
import { byId, deferred, settle } from "./dom-fixtures";
import { startPage } from "./page";
import { codecWith, countsOf, openPage, pagesOneAtATime, realCodec } from "./page-fixtures";

pagesOneAtATime();
const open = (options: Parameters<typeof openPage>[1] = {}) => openPage(startPage, options);

afterEach(() => vi.restoreAllMocks());

describe("the page", () => {
  it("opens on its link: the address bar, the counts asked before the page was built, then the full measurement of those counts", async () => {
    const p = await open({ link: "cap=4096" });
    expect(location.hash).toBe(`#${p.decoded.links.link}`);
    expect(p.activity()).toBe("Counting…");
    expect(p.asked).toEqual([]);
    const counts = countsOf(p.decoded.links.run);
    p.counts.resolve(counts);
    await settle();
    expect([p.asked[0]!.client, p.asked[0]!.args]).toEqual(["timer", [p.decoded.links.run, "full", undefined, counts.report]]);
    expect(p.activity()).toBe("Exact counts; timing…");
    expect(byId("headline").textContent).not.toBe("");
    expect(p.reached).toEqual(["firstNumbers"]);
  });

  it("Measure again asks for new counts; Stop ends both workers' requests; Reset opens the default link", async () => {
    const p = await open({ link: "cap=4096" });
    p.button("Measure again").click();
    expect(p.asked.map((a) => [a.client, a.args])).toEqual([["counter", [p.decoded.links.run, "counts"]]]);
    expect(p.button("Stop").disabled).toBe(false);
    p.button("Stop").click();
    expect(p.asked.slice(1).map((a) => a.client)).toEqual(["counter.cancel", "timer.cancel"]);
    expect(p.activity()).toBe("Stopped");
    p.button("Reset").click();
    await settle();
    expect(location.hash).toBe(`#${realCodec.decodeLink("").links.link}`);
    expect(byId("notices").querySelector("li")).toBeNull();
    expect(p.asked.at(-1)!.args).toEqual([realCodec.decodeLink("").links.run, "counts"]);
  });

  it("Copy link offers the address of what is on screen", async () => {
    const p = await open({ link: "cap=4096" });
    p.button("Copy link").click();
    expect(byId<HTMLInputElement>("link-field").value).toBe(`${location.href.split("#")[0]}#${p.decoded.links.link}`);
  });

  it("Settings (phones) takes the person to the form, without a second jump", async () => {
    const p = await open();
    const scrolled = vi.fn();
    byId("settings").scrollIntoView = scrolled;
    const focus = vi.spyOn(byId("settings"), "focus");
    p.button("Settings").click();
    expect(scrolled).toHaveBeenCalledWith({ block: "start" });
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
    expect(document.activeElement).toBe(byId("settings"));
  });

  it("marks the page built for the bench; the lab tabs control the settings and the results", async () => {
    const mark = vi.spyOn(performance, "mark");
    await open();
    expect(mark).toHaveBeenCalledWith("buflab:ui");
    const controls = byId("lab-tab-read").getAttribute("aria-controls")!.split(" ");
    expect(controls).toEqual(["settings", "results"]);
    for (const id of controls) expect(byId(id).tagName).toBe("SECTION");
  });

  it("the phone bar watches the headline and both labs' results", async () => {
    const observed: Element[] = [];
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        observe(element: Element) {
          observed.push(element);
        }
      },
    );
    await open();
    vi.unstubAllGlobals();
    expect(observed).toEqual([byId("headline"), byId("read-results"), byId("write-results")]);
  });

  it("a lesson's link opens with its card", async () => {
    const p = await open({ link: "lesson=one-byte" });
    expect(byId("lesson-card").hidden).toBe(false);
    expect(p.decoded.params.lesson).toBe("one-byte");
  });

  it("a link pasted into the address bar is read and measured", async () => {
    const p = await open();
    window.dispatchEvent(new HashChangeEvent("hashchange", { newURL: "http://localhost/#cap=512", oldURL: "http://localhost/" }));
    await settle();
    const read = realCodec.decodeLink("cap=512");
    expect(p.asked.at(-1)!.args).toEqual([read.links.run, "counts"]);
    expect(location.hash).toBe(`#${read.links.link}`);
  });

  it("what the engine's clients say reaches the screen", async () => {
    const p = await open();
    const mark = vi.spyOn(performance, "mark");
    p.engine({ type: "ready", info: { isolated: false } as never });
    expect(mark).toHaveBeenCalledWith("buflab:engine-ready");
    expect(byId("status").querySelector(".timer")!.textContent).toBe("worker not isolated: coarse timer");
    p.engine({ type: "building", builds: ["timing-fixed"] });
    p.counts.resolve(countsOf(p.decoded.links.run));
    await settle();
    expect(p.activity()).toBe("Building timing-fixed…");
    p.button("Stop").click();
    p.engine({ type: "respawned", reason: "The worker ran out of memory." });
    expect(byId("notices").textContent).toContain("The worker ran out of memory. A fresh engine was started.");
    p.engine({ type: "broken", message: "The engine's wasm did not load." });
    expect(byId("notices").querySelector("[role=alert]")!.textContent).toContain("The engine's wasm did not load.");
    expect(p.activity()).toBe("Engine unavailable");
  });

  it("a setting changed in the form measures the new settings", async () => {
    const p = await open();
    const workload = [...byId("controls").querySelectorAll("select")].find((select) => [...select.options].some((o) => o.value === "lines"))!;
    workload.value = "lines";
    workload.dispatchEvent(new Event("change", { bubbles: true }));
    const lines = realCodec.links({ ...p.decoded.params, workload: "lines" });
    expect(p.asked.at(-1)!.client).toBe("counter");
    expect(p.asked.at(-1)!.args).toEqual([lines.run, "counts"]);
    expect(location.hash).toBe(`#${lines.link}`);
  });

  it("a view tab shows its view", async () => {
    const p = await open();
    byId("view-tab-timeline").click();
    expect(document.body.dataset["view"]).toBe("timeline");
    expect(byId("view-tab-timeline").getAttribute("aria-selected")).toBe("true");
    expect(location.hash).toContain("view=timeline");
    expect(p.activity()).not.toBe("");
  });

  it("a notice dismissed goes", async () => {
    const p = await open();
    p.button("Stop").click();
    p.engine({ type: "respawned", reason: "Restarted." });
    const dismiss = byId("notices").querySelector<HTMLButtonElement>("button.dismiss")!;
    dismiss.click();
    expect(byId("notices").querySelector("li")).toBeNull();
  });

  it("a fault for the recovery tests rides on the next measurement's timed run", async () => {
    const p = await open();
    const fault = { kind: "panic" } as never;
    p.page.runWithFault(fault);
    const counts = p.asked.find((a) => a.client === "counter")!;
    counts.answer.resolve(countsOf(p.decoded.links.run));
    await settle();
    expect(p.asked.find((a) => a.client === "timer")!.args).toEqual([p.decoded.links.run, "full", fault, undefined]);
  });

  it("the controls that write links are inert until the program build has loaded", async () => {
    const program = deferred<void>();
    const p = await open({ codec: codecWith({ ready: false, programLoaded: program.promise }) });
    const writers = ["controls", "lab-switch", "view-tabs", "present"].map((id) => byId(id));
    expect(writers.map((e) => e.inert)).toEqual([true, true, true, true]);
    program.resolve();
    await settle();
    expect(writers.map((e) => e.inert)).toEqual([false, false, false, false]);
    expect(p.activity()).toBe("Counting…");
  });

  it("a link pasted before the program build has loaded is held, and measured once it has", async () => {
    const program = deferred<void>();
    let loaded = false;
    const p = await open({ codec: codecWith({ programLoaded: program.promise }, { ready: () => loaded }) });
    window.dispatchEvent(new HashChangeEvent("hashchange", { newURL: "http://localhost/#cap=512", oldURL: "http://localhost/" }));
    await settle();
    const read = realCodec.decodeLink("cap=512");
    expect(p.asked.map((a) => a.args[0])).not.toContain(read.links.run);
    loaded = true;
    program.resolve();
    await settle();
    expect(p.asked.at(-1)?.args).toEqual([read.links.run, "counts"]);
    expect(location.hash).toBe(`#${read.links.link}`);
  });

  it("a program build that does not load says settings cannot change, and why", async () => {
    const program = deferred<void>();
    await open({ codec: codecWith({ ready: false, programLoaded: program.promise }) });
    program.reject(new Error("404"));
    await settle();
    expect(byId("notices").textContent).toContain("Settings cannot change: the engine's program build did not load (404). Reload the page to try again.");
    expect(byId("controls").inert).toBe(true);
  });
});
