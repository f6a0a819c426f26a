import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearestCommands } from '../../../electron/cli/nearest-command.ts';

const COMMANDS = ['products', 'validate', 'send', 'resume', 'revalidate', 'retry', 'status', 'poll', 'report', 'follow-up', 'template', 'simulator'];

describe('editDistance', () => {
  it('counts a swap of neighbouring letters as one edit, and insertions, deletions and substitutions as one each', () => {
    expect(editDistance('sned', 'send')).toBe(1);
    expect(editDistance('stauts', 'status')).toBe(1);
    expect(editDistance('sen', 'send')).toBe(1);
    expect(editDistance('sendd', 'send')).toBe(1);
    expect(editDistance('sand', 'send')).toBe(1);
    expect(editDistance('followup', 'follow-up')).toBe(1);
    expect(editDistance('', 'poll')).toBe(4);
  });
});

// `giftbatch sned` said only 'Unknown command "sned"' and the whole usage.
describe('nearestCommands', () => {
  it('suggests the command a typo most likely meant, within two edits, whatever the case', () => {
    expect(nearestCommands('sned', COMMANDS)).toEqual(['send']);
    expect(nearestCommands('Status', COMMANDS)).toEqual(['status']);
    expect(nearestCommands('followup', COMMANDS)).toEqual(['follow-up']);
    expect(nearestCommands('reprot', COMMANDS)).toEqual(['report']);
    expect(nearestCommands('pol', COMMANDS)).toEqual(['poll']);
  });

  it('suggests nothing for a word far from every command, a very short one, or an option', () => {
    expect(nearestCommands('bogus', COMMANDS)).toEqual([]);
    expect(nearestCommands('xyzzy', COMMANDS)).toEqual([]);
    expect(nearestCommands('ls', COMMANDS)).toEqual([]);
    expect(nearestCommands('--data-dir', COMMANDS)).toEqual([]);
  });

  it('offers every command tied at the least distance', () => {
    expect(nearestCommands('retort', COMMANDS)).toEqual(['report']);
    expect(didYouMean('sent', ['send', 'rent', 'status'])).toBe(' Did you mean "send" or "rent"?');
    expect(didYouMean('sned', COMMANDS)).toBe(' Did you mean "send"?');
    expect(didYouMean('bogus', COMMANDS)).toBe('');
  });
});
