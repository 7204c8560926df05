// Work that would be one long task on the main thread, cut into steps that
// each run as a task of their own (drawing one chart is a step), so input
// that arrives meanwhile is handled between them: interaction to next paint
// stays short while reports arrive. A newer run drops the steps an older one
// has not yet taken: only the newest report is drawn.

export interface Steps {
  /** Runs `steps` in order, one task each, dropping any still waiting from an earlier call. */
  run(steps: (() => void)[]): void;
}

export function createSteps(): Steps {
  let generation = 0;
  return {
    run(steps) {
      const mine = ++generation;
      const next = (i: number): void => {
        if (mine !== generation || i >= steps.length) return;
        steps[i]!();
        setTimeout(() => next(i + 1), 0);
      };
      setTimeout(() => next(0), 0);
    },
  };
}
