// The table kit both labs' results tables are made of: a column's head and
// one row's cell (each cell carries data-metric and data-value for tests
// and scripts, and data-label for the phone layout, where each row becomes
// a card of label–value lines), and a whole table with a caption.

import type { MetricInfo } from "../engine/types.gen";
import { h, replaceChildren, setText } from "./dom";

/** What a results column shows in one row. */
export interface Cell {
  text: string | Node;
  /** The exact value, as the cell's data-value (tests and scripts read it). */
  value?: number | string;
  detail?: string;
}

/** What every results column has, whatever its rows are. */
export interface ColumnHead {
  /** Metric name, also the cell's data-metric (tests and scripts read it). */
  metric: string;
  heading: string;
  /** Short explanation, as the header's title. */
  about: string;
  numeric: boolean;
}

/** A metric's column head: its id, label and meaning from the schema (shared/metrics). */
export function metricHead(metric: MetricInfo): ColumnHead {
  return { metric: metric.id, heading: metric.label, about: metric.about, numeric: metric.unit !== "text" };
}

/** One body cell of a results table; `textClass` styles non-numeric cells. */
export function metricCell(column: ColumnHead, { text, value, detail }: Cell, textClass: string): HTMLElement {
  return h(
    "td",
    {
      role: "cell",
      "data-metric": column.metric,
      "data-value": value,
      // The phone layout prints this before the value.
      "data-label": column.heading,
      class: column.numeric ? "num" : textClass,
    },
    h("span", { class: "value" }, text, detail ? h("span", { class: "detail" }, detail) : null),
  );
}

export interface Column<R> extends ColumnHead {
  cell(row: R): Cell;
}

export interface TableSpec<R> {
  /** The first column's heading. */
  rowHeading: string;
  /** The row's attribute naming it, e.g. "data-flavour". */
  rowAttr: string;
  rowKey(row: R): string;
  rowLabel(row: R): string | Node;
  columns: Column<R>[];
  /** A compact table stays a table on phones (no cards). */
  compact?: boolean;
  label: string;
}

export interface Table<R> {
  element: HTMLElement;
  update(rows: R[], caption: string): void;
}

/** A table with one row per item, its caption given at each update. Explicit ARIA roles: phones restyle it as cards. */
export function table<R>(spec: TableSpec<R>): Table<R> {
  const caption = h("caption", {});
  const head = h(
    "tr",
    { role: "row" },
    h("th", { scope: "col", role: "columnheader" }, spec.rowHeading),
    ...spec.columns.map((c) =>
      h("th", { scope: "col", role: "columnheader", title: c.about, class: c.numeric ? "num" : undefined }, c.heading),
    ),
  );
  const body = h("tbody", { role: "rowgroup" });
  const el = h(
    "table",
    { class: spec.compact ? "results-compact" : "results", role: "table" },
    caption,
    h("thead", { role: "rowgroup" }, head),
    body,
  );
  const scroller = h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": spec.label }, el);
  // A compact table may scroll sideways; its caption is repeated below it,
  // where it does not scroll away (the caption itself stays for screen readers).
  const note = spec.compact ? h("p", { class: "table-note", "aria-hidden": "true" }) : null;
  if (spec.compact) caption.classList.add("visually-hidden");
  return {
    // A compact table keeps its columns and scrolls sideways when narrow;
    // a results table becomes cards (the .table-wrap container query).
    element: h("div", { class: spec.compact ? "table-wrap-compact" : "table-wrap" }, scroller, note),
    update(rows, text) {
      setText(caption, text);
      if (note) setText(note, text);
      replaceChildren(
        body,
        ...rows.map((row) =>
          h(
            "tr",
            { [spec.rowAttr]: spec.rowKey(row), role: "row" },
            h("th", { scope: "row", role: "rowheader" }, spec.rowLabel(row)),
            ...spec.columns.map((c) => metricCell(c, c.cell(row), "text")),
          ),
        ),
      );
    },
  };
}
