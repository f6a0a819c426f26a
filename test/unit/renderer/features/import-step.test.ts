// The import step as the window renders it (server-rendered markup, no browser needed) for a file that
// is no list (a letter .txt): only the message saying so, not its counts, columns or problems.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ImportStep } from '../../../../renderer/src/features/new-campaign/ImportStep.tsx';
import { createStores } from '../../../../renderer/src/stores/index.ts';
import { StoresContext } from '../../../../renderer/src/stores/hooks.ts';
import type { Preview } from '../../../../renderer/src/stores/wizard-store.ts';
import { fakeApi, ManualClock } from '../helpers/fakes.ts';

const letterPreview = {
  format: 'csv',
  encoding: 'utf-8',
  delimiter: ',',
  workbook: null,
  headers: ['Dear all'],
  mapping: {},
  detectedMapping: {},
  problems: [
    { line: 2, message: 'Line 2: no e-mail address. Choose it under Columns above.' },
    { line: 3, message: 'Line 3: no e-mail address. Choose it under Columns above.' },
  ],
  rows: [],
  defaultMessage: null,
  totals: { rows: 2, valid: 0, invalid: 2, duplicateEmails: 0, knownEmails: 0, amounts: [], byProduct: [], toSend: [] },
} as unknown as Preview;

function render(preview: Preview): string {
  const clock = new ManualClock();
  const stores = createStores({ api: fakeApi({}).api, timers: clock, now: clock.now });
  stores.wizard.setState({ file: { fileName: 'letter.txt', bytesBase64: 'RGVhciBhbGw=', size: 8 }, preview, previewStatus: 'ready' });
  // Server rendering reads a store's initial state (useSyncExternalStore's server snapshot): render this one.
  stores.wizard.getInitialState = stores.wizard.getState;
  return renderToStaticMarkup(createElement(StoresContext.Provider, { value: stores }, createElement(ImportStep)))
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&quot;', '"')
    .replace(/\s+/g, ' ');
}

describe('ImportStep with a file that is no list', () => {
  it('shows only that it does not look like a list, not the counts and the column problems', () => {
    const text = render({ ...letterPreview, notAList: true } as Preview);
    expect(text).toContain('"letter.txt" does not look like a list of recipients');
    expect(text).not.toContain('Need fixing');
    expect(text).not.toContain('problems while reading the file');
    expect(text).not.toContain('Choose it under Columns above');
    expect(text).toContain('Choose another file'); // the way to pick another one stays
  });

  it('keeps the counts and problems for a list (notAList false)', () => {
    const text = render({ ...letterPreview, notAList: false } as Preview);
    expect(text).toContain('Need fixing');
    expect(text).toContain('2 problems while reading the file');
  });
});
