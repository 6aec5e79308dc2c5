/** Dates a document states about itself, read from constructed text: as-of labels near the top, validity periods, expiry. */
import { describe, expect, it } from 'vitest';
import { documentDates, isExpired, parseDate } from '../../../../src/service/knowledge/extract/document-dates';

describe('document dates', () => {
  it('parses the forms documents write, and refuses impossible dates', () => {
    expect(parseDate('2024-03-01')).toBe('2024-03-01');
    expect(parseDate('March 1, 2024')).toBe('2024-03-01');
    expect(parseDate('Sept. 30th, 2024')).toBe('2024-09-30');
    expect(parseDate('1 March 2024')).toBe('2024-03-01');
    expect(parseDate('03/01/2024')).toBe('2024-03-01');
    expect(parseDate('August 2023')).toBe('2023-08-01');
    expect(parseDate('February 2024', true)).toBe('2024-02-29');
    expect(parseDate('2024-02-30')).toBeNull();
    expect(parseDate('13/01/2024')).toBeNull();
    expect(parseDate('Smarch 3, 2024')).toBeNull();
  });

  it("reads a questionnaire's or policy's own date near its top, the strongest label first", () => {
    expect(documentDates('Vendor Security Questionnaire\nDate: 2024-03-01\nVendor: Northwind')).toMatchObject({
      as_of: '2024-03-01',
      as_of_said: 'Date: 2024-03-01',
    });
    expect(documentDates('Access Control Policy\nDate created: 2019\nEffective date: January 15, 2024\nLast reviewed: 2024-06-30').as_of).toBe('2024-01-15');
    expect(documentDates('Incident Response Plan\nLast reviewed: 30 June 2024').as_of).toBe('2024-06-30');
    expect(documentDates('PCI DSS AOC For use with PCI DSS Version 4.0 Publication Date: August 2023 Section 1').as_of).toBe('2023-08-01');
    // A date far below the top is about something else.
    expect(documentDates(`Policy\n${'text '.repeat(1000)}\nDate: 2020-01-01`).as_of).toBeNull();
    expect(documentDates('We encrypt data at rest. Updated often.')).toEqual({ as_of: null, as_of_said: null, valid_until: null, valid_said: null });
  });

  it("reads a SOC report's period (as of and valid until its end) and a certificate's expiry", () => {
    const soc = documentDates("Report on Northwind's System Relevant to Security for the period October 1, 2023 to September 30, 2024");
    expect(soc).toEqual({
      as_of: '2024-09-30',
      as_of_said: 'for the period October 1, 2023 to September 30, 2024',
      valid_until: '2024-09-30',
      valid_said: 'for the period October 1, 2023 to September 30, 2024',
    });
    expect(documentDates('ISO/IEC 27001 Certificate. Issue date: 2023-05-02. Valid until: 2026-05-01.')).toMatchObject({
      as_of: '2023-05-02',
      valid_until: '2026-05-01',
    });
    expect(documentDates('Certificate number 123. Expiry date: 1 May 2026').valid_until).toBe('2026-05-01');
    // TX-RAMP's certificate, as its text reads.
    expect(documentDates('Certification Certificate Granted  03/09/2023  Certification Expiration  03/09/2026  Certificate Number')).toMatchObject({
      as_of: '2023-03-09',
      valid_until: '2026-03-09',
    });
    expect(documentDates('This certificate expires on March 31, 2025.').valid_until).toBe('2025-03-31');
    expect(documentDates('Certified. Valid from 2023-01-01 to 2025-12-31.').valid_until).toBe('2025-12-31');
  });

  it('a document is expired after the last day it is valid for, never without one', () => {
    expect(isExpired('2024-09-30', new Date('2024-09-30T23:00:00Z'))).toBe(false);
    expect(isExpired('2024-09-30', new Date('2024-10-01T00:00:00Z'))).toBe(true);
    expect(isExpired(null, new Date())).toBe(false);
  });
});
