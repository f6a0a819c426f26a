// The campaign's progress bar: how far its two fills reach, as the fractions of the bar's width the
// fills are scaled to. A fill is scaled (transform: scaleX), not sized (width): a change of width
// animates through layout and paint on the page's main thread at every frame of its transition,
// which during a send (a new figure up to 10 times a second) kept that thread drawing ~45 frames a
// second; a scale animates on the compositor.

export interface ProgressBar {
  /** Settled rows in whole percent, as the caption states it (the settled fill steps with it). */
  pctSettled: number;
  /** 0..1 of the bar's width. */
  settledScale: number;
  deliveredScale: number;
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

export function progressBar(settled: number, delivered: number, total: number): ProgressBar {
  if (total <= 0) return { pctSettled: 0, settledScale: 0, deliveredScale: 0 };
  const pctSettled = Math.round((settled / total) * 100);
  return { pctSettled, settledScale: clamp01(pctSettled / 100), deliveredScale: clamp01(delivered / total) };
}

/** The style of a fill scaled to `scale` of the bar, from its left edge. */
export function fillStyle(scale: number): { transform: string } {
  return { transform: `scaleX(${clamp01(scale)})` };
}
