import { describe, expect, it } from 'vitest';
import { excelParsesAsFormula, needsTextProtection, startsLikeFormula } from '../../src/fill';

describe('needsTextProtection', () => {
  const forced = [
    '=HYPERLINK("http://evil","click")',
    '=1+1',
    '+1 555 0100',
    '-',
    '- bullet list',
    '@SUM(A1)',
    '\tcmd',
    '\rcmd',
    "'quoted",
    '123456789012',
    '1234567890123456789',
    '00123',
    '1E5',
    '2.5e-3',
    '3/4',
    '1-2',
    '2024-01-05',
    '12/31/2024',
    '1-Jan',
    'Jan-24',
    '10%',
    '10:30',
    'TRUE',
    'false',
    '$5',
    '1,000',
    '(5)',
  ];
  const kept = [
    'Yes',
    'No',
    'NA',
    'We encrypt data at rest.',
    '42',
    '3.5',
    '0',
    '12345678901',
    'ISO 27001',
    'SOC 2 Type II',
    'A-1',
    '',
    'Email: a@b.c',
    '1 - 2 years',
  ];
  it.each(forced)('%j is forced to text', (v) => expect(needsTextProtection(v)).toBe(true));
  it.each(kept)('%j is written as is', (v) => expect(needsTextProtection(v)).toBe(false));
});

describe('the formula-prefix rule', () => {
  it('takes tab and carriage return as formula prefixes for CSV consumers, not for Excel itself', () => {
    for (const v of ['=1', '+1', '-1', '@A1']) expect([startsLikeFormula(v), excelParsesAsFormula(v)]).toEqual([true, true]);
    for (const v of ['\t=1', '\r=1']) expect([startsLikeFormula(v), excelParsesAsFormula(v)]).toEqual([true, false]);
    for (const v of ['', 'plain', ' =1']) expect([startsLikeFormula(v), excelParsesAsFormula(v)]).toEqual([false, false]);
  });
});
