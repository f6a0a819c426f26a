// `giftbatch send` of a large file: how far saving the draft is, on stderr. A terminal gets one line
// redrawn and cleared at the end; a log gets a line every 2 s at most, none for a file saved sooner.
import { describe, expect, it } from 'vitest';
import { saveProgressView } from '../../../electron/cli/progress.ts';

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream };
}

describe('saveProgressView', () => {
  it('on a terminal, redraws one line with the rows saved, and clears it when the create answers', () => {
    const s = stream(true);
    const view = saveProgressView(s.stream, () => 0);
    view.update({ phase: 'checking', stored: 0, total: null });
    view.update({ phase: 'storing', stored: 42_000, total: 100_000 });
    view.done();
    expect(s.written).toEqual(['\r\x1b[2KSaving the draft: checking the file', '\r\x1b[2KSaving the draft: 42,000 of 100,000 rows', '\r\x1b[2K']);
  });

  it('in a log, says nothing for a file saved within 2 s, then a plain line every 2 s at most', () => {
    const s = stream(false);
    let clock = 1_000;
    const view = saveProgressView(s.stream, () => clock);
    view.update({ phase: 'checking', stored: 0, total: null });
    clock += 1_500;
    view.update({ phase: 'storing', stored: 0, total: 100_000 });
    expect(s.written).toEqual([]);
    clock += 600;
    view.update({ phase: 'storing', stored: 20_000, total: 100_000 });
    clock += 1_000;
    view.update({ phase: 'storing', stored: 40_000, total: 100_000 });
    clock += 1_000;
    view.update({ phase: 'storing', stored: 60_000, total: 100_000 });
    view.done();
    expect(s.written).toEqual(['saving: 20,000 of 100,000 rows\n', 'saving: 60,000 of 100,000 rows\n']);
  });
});
