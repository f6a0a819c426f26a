// "giftbatch sned": the known commands a mistyped one most likely meant, by edit distance (a swap of
// two neighbouring letters counts as one edit, as "sned" for "send" is typed). Only close ones are
// offered: a word two edits or more from every command is no typo of one.

/** The optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps, each 1. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

export const MAX_SUGGESTION_DISTANCE = 2;

/**
 * The commands closest to `typed` (ignoring case), when within MAX_SUGGESTION_DISTANCE edits and
 * fewer edits than the word has letters (so "ls" suggests nothing); several when tied. None for an
 * option (a word starting with '-').
 */
export function nearestCommands(typed: string, commands: readonly string[]): string[] {
  if (typed.startsWith('-')) return [];
  const word = typed.toLowerCase();
  const limit = Math.min(MAX_SUGGESTION_DISTANCE, word.length - 1);
  let best = Infinity;
  let found: string[] = [];
  for (const command of commands) {
    const distance = editDistance(word, command);
    if (distance > limit || distance > best) continue;
    if (distance < best) [best, found] = [distance, []];
    found.push(command);
  }
  return found;
}

/** " Did you mean \"send\"?" (or "\"poll\" or \"report\""); empty when no command is close. */
export function didYouMean(typed: string, commands: readonly string[]): string {
  const near = nearestCommands(typed, commands);
  return near.length === 0 ? '' : ` Did you mean ${near.map((c) => `"${c}"`).join(' or ')}?`;
}
