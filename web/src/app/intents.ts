// What a person does, as actions: each change goes to the model with the
// links the engine's codec writes for it (state.ts `Links`), or with none
// while the codec cannot write links yet, and the model decides what follows
// (it holds such a change until it can, `codecReady`, and this module makes
// it again: `replay`). The engine fits a sweep to the rest of the settings
// here too, and a lab's module is awaited before its settings show.

import type { Codec } from "../engine/codec";
import { messageOf } from "../engine/errors";
import type { Decoded, Lab, LabReport, Links, Params, Report, Sweep, View } from "../engine/types.gen";
import type { LabUi } from "../shared/lab";
import { labOf as labOfLabs, type Labs } from "./labs";
import { currentResults, keepWorkshop, type Action, type AppState, type Held } from "./state";

export interface Intents {
  /** A setting changed (as from a form field); `live` while a slider is still moving. */
  edit(params: Params, live: boolean): void;
  /** A display-only setting changed (presenter mode, the timeline's step): no new run. */
  display(params: Params): void;
  /** The sweep's axis or range changed. */
  editSweep(sweep: Sweep | null): void;
  /** A view tab was chosen: the lab may bring the view's own starting settings. */
  chooseView(view: View): void;
  /** The lab switch: shown once its module has arrived. */
  chooseLab(lab: Lab): void;
  /** A link was read (a pasted or lesson link, Reset): shown once its lab has arrived, and measured; presenter mode and predict stay on. */
  loadLink(read: Decoded): void;
  /** Makes a change the model held again, now that links can be written. */
  replay(held: Held): void;
  /**
   * Compare: the settings on screen become A, and B is A with link key
   * `key` set to `value` (null: B the same as A, an A/A comparison). The
   * comparison link this writes is read like any link, B's value validated
   * with its notice, and measured.
   */
  compareWith(key: string | null, value: string): void;
  /**
   * Result files (from another machine, or `buflab --json`), picked or
   * dropped: one is B, against the report on screen as A; two are A and B.
   * Every file refused gets its own notice; nothing else changes.
   */
  compareFiles(files: readonly File[]): void;
  /** A saved baseline's report (`name` says which) as A, against `report`, the run on screen, as B: the same comparison view. */
  compareSaved(name: string, saved: Report, report: Report): void;
  /** Close the comparison: A alone. */
  closeCompare(): void;
}

export interface IntentsOptions {
  codec: Codec;
  labs: Labs;
  state(): AppState;
  dispatch(action: Action): void;
  /** Shows params in every form again (after a refused change). */
  show(params: Params): void;
}

export function createIntents({ codec, labs, state, dispatch, show }: IntentsOptions): Intents {
  const labOf = (id: Lab): LabUi => labOfLabs(labs, id);
  const refuse = (error: unknown): void => {
    // The controls keep to the schema's limits, so this means they disagree with the engine.
    dispatch({ type: "refused", message: messageOf(error) });
    show(state().params);
  };
  /** The links of `params`: null while the codec cannot write links; undefined (the refusal shown) when the engine calls them invalid. */
  const linksOf = (params: Params): Links | null | undefined => {
    if (!codec.ready) return null;
    try {
      return codec.links(params);
    } catch (error) {
      refuse(error);
      return undefined;
    }
  };
  /** `params` with their sweep fitted to the rest (e.g. fewer streams fit a longer stream), its notes shown beside the sweep; throws when the rest is invalid. */
  const fitted = (params: Params): Params => {
    if (!params.sweep || !codec.ready) return params;
    const fit = codec.fitSweep(params);
    labOf(params.lab).fitted(fit.notices.map((n) => `${n.key}: ${n.message}.`));
    return fit.params;
  };
  /** The bench reads this mark: a change of settings → its exact counts on screen. */
  const marked = (links: Links | null): void => {
    if (links && links.run !== state().runFragment) performance.mark("buflab:edited");
  };

  /** The newest change of lab; one still waiting for its lab's module gives way to a newer one. */
  let labChange = 0;
  /** Runs `change` once `lab`'s module has arrived; a lab that cannot load (offline before the offline copy) is refused like an invalid edit. */
  function withLab(lab: Lab, change: () => void): void {
    const mine = ++labChange;
    labs[lab](
      () => {
        if (mine === labChange) change();
      },
      (error) => dispatch({ type: "refused", message: `The ${lab} lab could not be loaded: ${messageOf(error)}` }),
    );
  }

  function edit(params: Params, live: boolean): void {
    try {
      params = fitted(params);
    } catch {
      // The rest is invalid: linksOf says why.
    }
    const links = linksOf(params);
    if (links === undefined) return;
    marked(links);
    dispatch({ type: "edited", params, links, live });
  }

  function display(params: Params): void {
    const links = linksOf(params);
    if (links !== undefined) dispatch({ type: "display", params, links });
  }

  function sweepChanged(params: Params): void {
    try {
      params = fitted(params);
    } catch (error) {
      return refuse(error);
    }
    const links = linksOf(params);
    if (links !== undefined) dispatch({ type: "sweepEdited", params, links });
  }

  function chooseView(view: View): void {
    if (!codec.ready) return dispatch({ type: "viewChosen", view, entered: null });
    const entered = labOf(state().params.lab).enter(view, state().params);
    let params = entered.params;
    try {
      params = fitted(params);
    } catch {
      // The rest is invalid: linksOf says why.
    }
    const links = linksOf(params);
    if (!links) return;
    marked(links);
    dispatch({ type: "viewChosen", view, entered: { params, links, note: entered.note } });
  }

  function loadLink(read: Decoded): void {
    // A link the counting build could not read whole is read again once
    // the program build has loaded; until then the model holds it.
    if (read.deferred !== undefined) {
      if (!codec.ready) return dispatch({ type: "linkLoaded", link: read, links: null });
      read = codec.decodeLink(read.deferred);
    }
    const params = keepWorkshop(state().params, read.params);
    withLab(params.lab, () => {
      const links = linksOf(params);
      if (links !== undefined) dispatch({ type: "linkLoaded", link: { ...read, params }, links });
    });
  }

  function compareWith(key: string | null, value: string): void {
    const { b_prefix } = codec.schema.compare;
    const b = key === null ? `${b_prefix}v=${codec.schema.version}` : `${b_prefix}${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
    loadLink(codec.decodeLink(`${state().runFragment}&${b}`));
  }

  /** Result files and baselines are paired in a chunk of their own (compare-files.ts), loaded when first used. */
  const paired = (then: (m: typeof import("./compare-files")) => Promise<void>, file: string): void =>
    void import("./compare-files").then(then, (error: unknown) =>
      dispatch({ type: "compareFile", file, outcome: { kind: "refused", message: `The result reader did not load: ${messageOf(error)}` } }),
    );
  const onScreen = (): LabReport | null => {
    const a = currentResults(state()).report;
    return a === null || a.stage === "counts" ? null : a;
  };

  return {
    compareWith,
    compareFiles: (files) => paired((m) => m.compareFiles(files, { dispatch, onScreen, maxBytes: codec.schema.compare.max_result_bytes }), files[0]?.name ?? "file"),
    compareSaved: (name, saved, report) => paired((m) => m.compareSaved(name, saved, report, dispatch), name),
    closeCompare: () => dispatch({ type: "compareClosed" }),
    edit,
    display,
    editSweep: (sweep) => sweepChanged({ ...state().params, sweep }),
    chooseView,
    chooseLab: (lab) => withLab(lab, () => edit({ ...state().params, lab }, false)),
    loadLink,
    replay(held) {
      switch (held.kind) {
        case "edit":
          return edit(held.params, held.live);
        case "display":
          return display(held.params);
        case "sweep":
          return sweepChanged(held.params);
        case "view":
          return chooseView(held.view);
        case "link":
          return loadLink(held.link);
      }
    },
  };
}
