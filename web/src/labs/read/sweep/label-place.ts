// Where a knee's label goes on its chart: beside its dashed line, in the
// first row down from the top where it crosses no reader's line and no
// other label, so a label never hides the line it is about or another one.

/** A reader's line as drawn: its points in canvas pixels, left to right. */
export type Polyline = readonly { x: number; y: number }[];

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The y of `line` at pixel column `x` (chart.js draws straight segments between points), or null outside it. */
function yAt(line: Polyline, x: number): number | null {
  for (let k = 1; k < line.length; k++) {
    const a = line[k - 1]!;
    const b = line[k]!;
    if (x < a.x || x > b.x) continue;
    return b.x === a.x ? a.y : a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x);
  }
  return null;
}

/** True when `line` passes through `box` (padded by `pad` px): sampled every 2 px across it, and at its points inside. */
export function crosses(line: Polyline, box: Box, pad = 2): boolean {
  const top = box.top - pad;
  const bottom = box.bottom + pad;
  const inside = (y: number | null): boolean => y !== null && y >= top && y <= bottom;
  if (line.some((p) => p.x >= box.left && p.x <= box.right && p.y >= top && p.y <= bottom)) return true;
  for (let x = box.left; x <= box.right; x += 2) if (inside(yAt(line, x))) return true;
  return inside(yAt(line, box.right));
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * The box of a label `width` × `height` at horizontal position `left`: the
 * first row from `area.top` down (rows `height + gap` apart) that crosses no
 * line and no box in `taken`; where every row does, the top row that
 * crosses fewest lines (a label must go somewhere).
 */
export function placeLabel(left: number, width: number, height: number, area: Box, lines: readonly Polyline[], taken: readonly Box[], gap = 4): Box {
  let best: { box: Box; cost: number } | null = null;
  for (let top = area.top + 2; top + height <= area.bottom - 2; top += height + gap) {
    const box = { left, top, right: left + width, bottom: top + height };
    if (taken.some((t) => overlaps(t, box))) continue;
    const cost = lines.filter((line) => crosses(line, box)).length;
    if (cost === 0) return box;
    if (best === null || cost < best.cost) best = { box, cost };
  }
  return best?.box ?? { left, top: area.top + 2, right: left + width, bottom: area.top + 2 + height };
}
