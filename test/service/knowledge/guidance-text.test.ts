import { describe, expect, it } from 'vitest';
import { isGuidanceText } from '../../../src/service/knowledge/guidance-text';

describe('isGuidanceText', () => {
  it('recognises what templates say to the respondent and to their assessors', () => {
    for (const text of [
      'If the solution provider cannot accommodate encryption requirements using open standards, direct them to NIST SP 800-175B.',
      'Please provide the direct URL to your privacy policy.',
      'The privacy policy must be public. Please provide the direct URL to your privacy policy, if one exists.',
      'Please describe your end user permission levels.',
      'Please include a copy with your response and include a URL for the published assessment.',
      'If yes, please describe the controls in place.',
      'If no, explain why not.',
      'Select Yes or No from the dropdown.',
      'Use the drop-down to choose an answer.',
      'Enter N/A if this does not apply.',
      'The solution provider should describe its key management.',
      'A "No" answer should prompt a follow-up with the vendor.',
      'Preferred response: Yes',
      'If the vendor cannot provide a SOC 2 report, ask for an ISO 27001 certificate.',
    ]) {
      expect(isGuidanceText(text), text).toBe(true);
    }
  });

  it("keeps the organisation's own answers, also those that point the reader somewhere", () => {
    for (const text of [
      'Yes',
      'No',
      'N/A',
      'Yes, all data is encrypted at rest with AES-256.',
      'Please see our SOC 2 Type II report, available under NDA.',
      'Please refer to the Instructure Security Overview, section 4.',
      'Please note that backups are kept for 30 days.',
      'Please contact security@example.com for our penetration test summary.',
      'We require third parties to complete a security assessment before onboarding.',
      'Suppliers must sign our data processing agreement.',
      'If a customer requests deletion, their data is removed within 30 days.',
      'If the institution requires it, data can be hosted in the EU region.',
      'Canvas Catalog is SOC 2 audited annually by an independent firm.',
      'Users select their own passwords, which must meet complexity rules.',
      '',
    ]) {
      expect(isGuidanceText(text), text).toBe(false);
    }
  });
});
