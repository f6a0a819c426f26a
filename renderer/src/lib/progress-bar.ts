// The campaign's progress bar: how far its two fills reach (the rows sent, drawn as waiting, and over
// them the rows delivered), as the fractions of the bar's width the
// fills are scaled to. A fill is scaled (transform: scaleX), not sized (width): a change of width
// animates through layout and paint on the page's main thread at every frame of its transition,
// which during a send (a new figure up to 10 times a second) kept that thread drawing ~45 frames a
// second; a scale animates on the compositor.

export interface ProgressBar {
  /** Rows the send is through with (ordered or settled), in whole percent (the sent fill steps with it). */
  pctSent: number;
  /** 0..1 of the bar's width. */
  sentScale: number;
  deliveredScale: number;
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

export function progressBar(sent: number, delivered: number, total: number): ProgressBar {
  if (total <= 0) return { pctSent: 0, sentScale: 0, deliveredScale: 0 };
  const pctSent = Math.round((sent / total) * 100);
  return { pctSent, sentScale: clamp01(pctSent / 100), deliveredScale: clamp01(delivered / total) };
}

/** The style of a fill scaled to `scale` of the bar, from its left edge. */
export function fillStyle(scale: number): { transform: string } {
  return { transform: `scaleX(${clamp01(scale)})` };
}
