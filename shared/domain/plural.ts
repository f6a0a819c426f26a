// A count and its noun in agreement, for every message the engine and the CLI print: "1 row",
// "1,250 rows", never "row(s)". Nouns whose plural is not word + "s" pass it.
export const plural = (n: number, word: string, words = `${word}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? word : words}`;
