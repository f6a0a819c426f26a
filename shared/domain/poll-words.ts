// What a poll round settled, in the same words for the window's "Check now" and the CLI's poll line:
// "3 delivered, 1 cancelled" (a cancelled gift is no delivery; "settled" said neither).

export function settledText(round: { readonly delivered: number; readonly cancelled: number }): string {
  return `${round.delivered.toLocaleString('en-US')} delivered, ${round.cancelled.toLocaleString('en-US')} cancelled`;
}
