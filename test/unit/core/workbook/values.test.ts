import { describe, expect, it } from 'vitest';
import { numberText, serialDateText } from '../../../../electron/core/workbook/values.ts';

describe('numberText', () => {
  it('gives plain integers back as they are written (the common cell, no conversion)', () => {
    expect(numberText('0')).toBe('0');
    expect(numberText('25')).toBe('25');
    expect(numberText('123456789012345')).toBe('123456789012345');
  });

  it('canonicalises everything else: leading zeros, trailing zeros, signs, exponents, float noise, long integers', () => {
    expect(numberText('007')).toBe('7');
    expect(numberText('00')).toBe('0');
    expect(numberText('88.50')).toBe('88.5');
    expect(numberText('-5')).toBe('-5');
    expect(numberText('+5')).toBe('5');
    expect(numberText(' 5')).toBe('5');
    expect(numberText('2.5E1')).toBe('25');
    expect(numberText('25.499999999999996')).toBe('25.5');
    expect(numberText('1234567890123456')).toBe('1234567890123460');
    expect(numberText('1E-7')).toBe('0.0000001');
  });

  it('answers null for what is not a number', () => {
    expect(numberText('')).toBeNull();
    expect(numberText('  ')).toBeNull();
    expect(numberText('12a')).toBeNull();
    expect(numberText('Infinity')).toBeNull();
  });
});

describe('serialDateText', () => {
  it('reads a serial as its date, and leaves a number no date can be to the caller', () => {
    expect(serialDateText(45413, false)).toBe('2024-05-01');
    expect(serialDateText(45413.5, false)).toBe('2024-05-01T12:00:00');
    expect(serialDateText(1e9, false)).toBeNull();
    expect(serialDateText(-1, false)).toBeNull();
    expect(serialDateText(Number.POSITIVE_INFINITY, false)).toBeNull();
  });
});
