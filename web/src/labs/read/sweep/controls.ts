// The sweep's controls (owns its form, the range note and the line about the
// axis): an axis and a power-of-two range, built from the schema's
// sweep_axes, and optionally a second axis with its own range (the
// heatmap's columns); Run sweep and Cancel. Without a second axis its
// control waits in the view's foot (`foot`), so the controls stay one row.

import type { Codec } from "../../../engine/codec";
import type { Across, Params, Sweep, SweepAxis, SweepAxisInfo } from "../../../engine/types.gen";
import { h, replaceChildren, setText } from "../../../shared/dom";
import type { Axes } from "./axes";

export interface SweepControls {
  form: HTMLFormElement;
  /** How the engine fitted the range (cut to the limits), beside the controls. */
  rangeNote: HTMLElement;
  /** Shows `params.sweep`. */
  show(params: Params): void;
  /** The axis the controls show (null: off). */
  axis(): SweepAxisInfo | null;
  setRunning(running: boolean): void;
  note(messages: string[]): void;
}

export interface ControlsOptions {
  /** The sweep controls changed: the page fits, stores and links the sweep. */
  onChange(sweep: Sweep | null): void;
  onRun(): void;
  onCancel(): void;
  /** The view's foot, under the results: the line about the axis goes there, and the second axis' control while there is none. */
  foot: HTMLElement;
}

/** Refills a select's options when they change (a select being used keeps its list otherwise). */
function setOptions(select: HTMLSelectElement, options: HTMLOptionElement[]): void {
  const key = options.map((o) => `${o.value}:${o.text}`).join(",");
  if (select.dataset["options"] === key) return;
  replaceChildren(select, ...options);
  select.dataset["options"] = key;
}

/** A range from two selects; the one just changed wins when they cross. */
function rangeOf(from: HTMLSelectElement, to: HTMLSelectElement, changed: EventTarget | null): [number, number] {
  const a = Number(from.value);
  const b = Number(to.value);
  if (a <= b) return [a, b];
  return changed === from ? [a, a] : [b, b];
}

/** A labelled select in its field. */
const field = (id: string, label: HTMLElement | string, select: HTMLSelectElement): HTMLElement =>
  h("div", { class: "sweep-field" }, typeof label === "string" ? h("label", { for: id }, label) : label, select);

export function createControls(codec: Codec, axes: Axes, { onChange, onRun, onCancel, foot }: ControlsOptions): SweepControls {
  const axisSelect = h("select", { id: "sweep-axis", name: "sweep" }, h("option", { value: "off" }, "Off"), ...axes.all.map((a) => h("option", { value: a.id }, a.label)));
  const fromSelect = h("select", { id: "sweep-from", name: "from" });
  const toSelect = h("select", { id: "sweep-to", name: "to" });
  const acrossSelect = h("select", { id: "sweep-across" });
  const acrossFromSelect = h("select", { id: "sweep-across-from" });
  const acrossToSelect = h("select", { id: "sweep-across-to" });
  const runButton = h("button", { type: "button", class: "primary", "data-action": "sweep-run" }, "Run sweep");
  const cancelButton = h("button", { type: "button", "data-action": "sweep-cancel", disabled: true }, "Cancel");
  const acrossLabel = h("label", { for: "sweep-across" }, "By");
  const fromField = field("sweep-from", "From", fromSelect);
  const toField = field("sweep-to", "To", toSelect);
  const acrossField = field("sweep-across", acrossLabel, acrossSelect);
  const acrossFromField = field("sweep-across-from", "From", acrossFromSelect);
  const acrossToField = field("sweep-across-to", "To", acrossToSelect);
  const form = h("form", { class: "sweep-form", novalidate: true }, field("sweep-axis", "Axis", axisSelect), fromField, toField, acrossFromField, acrossToField, h("div", { class: "buttons sweep-buttons" }, runButton, cancelButton));
  const rangeNote = h("p", { class: "field-note warn sweep-range-note", role: "status" });
  const about = h("p", { class: "sweep-about field-note" });
  foot.append(about, acrossField);

  const currentAxis = (): SweepAxisInfo | null => (axisSelect.value === "off" ? null : axes.infoOf(axisSelect.value as SweepAxis));
  const currentAcross = (): SweepAxisInfo | null => {
    const id = acrossSelect.value;
    return id === "" || id === axisSelect.value ? null : axes.infoOf(id as SweepAxis);
  };
  /** Whether `params` use the setting an axis moves (the settings strip's rule, `codec.uses`). */
  const axisUsed = (params: Params, axis: SweepAxisInfo): boolean => codec.uses(params, axis.key);
  /** The axes offered for `params`: those the experiment uses, and `keep` (the link's) even when it does not, so the control shows it. */
  const axisOptions = (params: Params, keep: SweepAxis | undefined, except?: SweepAxis): HTMLOptionElement[] =>
    axes.all
      .filter((a) => a.id !== except && (axisUsed(params, a) || a.id === keep))
      .map((a) => h("option", { value: a.id }, axisUsed(params, a) ? a.label : `${a.label} (not used here)`));

  function fillRange(select: HTMLSelectElement, axis: SweepAxisInfo | null, selected: number | undefined): void {
    if (!axis || selected === undefined) {
      replaceChildren(select);
      delete select.dataset["values"];
      return;
    }
    const values: number[] = [];
    for (let v = axis.bounds.min; v <= axis.bounds.max; v *= 2) values.push(v);
    const key = values.join(",");
    if (select.dataset["values"] !== key) {
      replaceChildren(select, ...values.map((v) => h("option", { value: v }, axes.formatValue(axis, v))));
      select.dataset["values"] = key;
    }
    select.value = String(selected);
  }

  /** The sweep the controls show (`changed`: the select the person just moved). */
  function sweepOfControls(changed: EventTarget | null): Sweep | null {
    const axis = currentAxis();
    if (!axis) return null;
    const [from, to] = changed === axisSelect ? [axis.from, axis.to] : rangeOf(fromSelect, toSelect, changed);
    const second = currentAcross();
    if (!second) return { axis: axis.id, from, to };
    const fresh = changed === axisSelect || changed === acrossSelect || acrossFromSelect.options.length === 0;
    const [f, t] = fresh ? [second.from, second.to] : rangeOf(acrossFromSelect, acrossToSelect, changed);
    const across: Across = { axis: second.id, from: f, to: t };
    return { axis: axis.id, from, to, across };
  }
  for (const select of [axisSelect, fromSelect, toSelect, acrossSelect, acrossFromSelect, acrossToSelect]) {
    select.addEventListener("change", (event) => onChange(sweepOfControls(event.target)));
  }
  runButton.addEventListener("click", onRun);
  cancelButton.addEventListener("click", onCancel);

  return {
    form,
    rangeNote,
    axis: currentAxis,
    show(params) {
      const sweep = params.sweep;
      setOptions(axisSelect, [h("option", { value: "off" }, "Off"), ...axisOptions(params, sweep?.axis)]);
      axisSelect.value = sweep ? sweep.axis : "off";
      const axis = currentAxis();
      // No range to pick without an axis.
      fromField.hidden = toField.hidden = acrossField.hidden = axis === null;
      setOptions(acrossSelect, [h("option", { value: "" }, "—"), ...axisOptions(params, sweep?.across?.axis, axis?.id)]);
      acrossSelect.value = sweep?.across?.axis ?? "";
      const across = currentAcross();
      acrossFromField.hidden = acrossToField.hidden = across === null;
      if (across) form.insertBefore(acrossField, acrossFromField);
      else foot.append(acrossField);
      setText(acrossLabel, across ? "By" : "Second axis (heatmap)");
      fillRange(fromSelect, axis, sweep?.from);
      fillRange(toSelect, axis, sweep?.to);
      fillRange(acrossFromSelect, across, sweep?.across?.from);
      fillRange(acrossToSelect, across, sweep?.across?.to);
      const unused = [axis, across].filter((a): a is SweepAxisInfo => a !== null && !axisUsed(params, a));
      const words = [axis ? axis.about : "", ...unused.map((a) => `These settings do not use the ${a.label.toLowerCase()}: every ${a.id} would measure the same experiment.`)];
      setText(about, words.filter(Boolean).join(" "));
    },
    setRunning(running) {
      runButton.disabled = running || currentAxis() === null;
      cancelButton.disabled = !running;
    },
    note(messages) {
      setText(rangeNote, messages.join(" "));
    },
  };
}
