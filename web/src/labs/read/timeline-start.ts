// The timeline view's starting settings, apart from the view's own module
// (timeline.ts), which loads after the first numbers: the read lab needs
// them before that, to open the timeline view.

/**
 * The timeline's starting settings: a 256-byte buffer read 8 bytes at a
 * time, so over a network of 64–512-byte chunks a fill, its drain and the
 * refill all happen within the recorded steps.
 */
export const TIMELINE_START = { cap: 256, rs: 8 } as const;
