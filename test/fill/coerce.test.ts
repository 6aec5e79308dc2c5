import { describe, expect, it } from 'vitest';
import { coerceToAllowed, resolveTab } from '../../src/fill';

describe('coerceToAllowed', () => {
  const ynna = ['Yes', 'No', 'NA'];
  const ynSlash = ['Yes', 'No', 'N/A'];
  const table: [string, readonly string[], string | null][] = [
    ['Yes', ynna, 'Yes'],
    ['yes', ynna, 'Yes'],
    ['  YES  ', ynna, 'Yes'],
    ['Yes.', ynna, 'Yes'],
    ['Y', ynna, 'Yes'],
    ['y', ynna, 'Yes'],
    ['TRUE', ynna, 'Yes'],
    ['No.', ynna, 'No'],
    ['N', ynna, 'No'],
    ['false', ynna, 'No'],
    ['N/A', ynna, 'NA'],
    ['n.a.', ynna, 'NA'],
    ['Not applicable', ynna, 'NA'],
    ['NA', ynSlash, 'N/A'],
    ['n.a.', ynSlash, 'N/A'],
    ['N/A', ynSlash, 'N/A'],
    ['Yes, all data is encrypted at rest.', ynna, 'Yes'],
    ['No - we do not', ynna, 'No'],
    ['N/A, not relevant', ynSlash, 'N/A'],
    ['Not applicable, we store no card data.', ynna, 'NA'],
    ['Does not apply: no payments are taken', ynSlash, 'N/A'],
    ['Not implemented yet', ynna, 'No'],
    ['Maybe', ynna, null],
    ['Yes/No', ynna, null],
    ['Y / N', ynna, null],
    ['yes or no, depending on the plan', ynna, null],
    ['Yesterday', ynna, null],
    ['', ynna, null],
    ['Yes', [], null],
    ['cloud service provider', ['CSP-owned', 'CSC-owned', 'Shared CSP and CSC', 'Third-party outsourced'], null],
    ['csp owned', ['CSP-owned', 'CSC-owned', 'Shared CSP and CSC', 'Third-party outsourced'], 'CSP-owned'],
    ['Shared  CSP and CSC', ['CSP-owned', 'CSC-owned', 'Shared CSP and CSC', 'Third-party outsourced'], 'Shared CSP and CSC'],
  ];
  it.each(table)('%j in %j -> %j', (value, allowed, expected) => {
    expect(coerceToAllowed(value, allowed)).toBe(expected);
  });
});

describe('resolveTab', () => {
  const sheets = ['Introduction', 'CAIQv4.0.3', 'HECVAT - Lite | Vendor Response', 'Data', 'data '];
  it('prefers an exact match, then a trimmed case-insensitive one', () => {
    expect(resolveTab('CAIQv4.0.3', sheets)).toBe('CAIQv4.0.3');
    expect(resolveTab('caiqv4.0.3', sheets)).toBe('CAIQv4.0.3');
    expect(resolveTab('  hecvat - lite |  vendor response ', sheets)).toBe('HECVAT - Lite | Vendor Response');
    expect(resolveTab('Data', sheets)).toBe('Data');
  });
  it('returns null for unknown or ambiguous names', () => {
    expect(resolveTab('Missing', sheets)).toBeNull();
    expect(resolveTab('DATA', sheets)).toBeNull();
    expect(resolveTab('', sheets)).toBeNull();
  });
});
