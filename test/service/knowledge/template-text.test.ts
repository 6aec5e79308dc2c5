import { describe, expect, it } from 'vitest';
import { isTemplateText, summariseTemplate, templateLabel, templateMarks } from '../../../src/service/knowledge/template-text';

describe('templateMarks', () => {
  it('finds fill-in placeholders, variables left in a rendered template and blanks', () => {
    const text =
      "Monitoring covers [FILL IN: what's actually monitored — metrics, logs, alerts?]. Tickets go to [ticketingSystem] and [provider]; owner: TBD, signed ______.";
    expect(templateMarks(text).placeholders).toEqual([
      "[FILL IN: what's actually monitored — metrics, logs, alerts?]",
      '[ticketingSystem]',
      '[provider]',
      'TBD',
      '______',
    ]);
  });

  it('finds named blanks in brackets and angle brackets', () => {
    expect(templateMarks('Dear [Name of Customer], on [Insert Date] <company name> reported').placeholders).toEqual([
      '[Name of Customer]',
      '[Insert Date]',
      '<company name>',
    ]);
  });

  it('finds guidance addressed to whoever fills the template in', () => {
    expect(templateMarks("We review access quarterly. Say 'not yet' if true.").guidance).toHaveLength(1);
    expect(isTemplateText('Replace this text with your retention schedule.')).toBe(true);
  });

  it('leaves statements with links, footnotes, glosses, checkboxes and HTML alone', () => {
    for (const text of [
      'See our [Privacy Policy](https://example.com/privacy) and the [security overview][1].',
      'Encryption uses AES-256 [1] as required by the standard[^2].',
      'Districts can identify page visits [events] and time on application [minutes] at a browser level.',
      '- [ ] Send the communications below',
      'Line one<br />line two',
      'Write to <security@example.com> or <https://example.com>.',
      'Employees use unique user IDs to authenticate to systems.',
      'Answer every support ticket within a day; no customer waits.',
    ]) {
      expect(isTemplateText(text), text).toBe(false);
    }
  });
});

describe('templateLabel', () => {
  it('counts placeholders and passages kept out, and says when the whole file is a template', () => {
    const some = summariseTemplate(['Access is reviewed by [securityOfficerName].', 'Access is reviewed quarterly.']);
    expect(templateLabel(some)).toBe('template: 1 placeholder; 1 of 2 passages kept out of answers');
    const only = summariseTemplate(['Owner: TBD', "Say 'yes' if true."]);
    expect(templateLabel(only)).toBe('template only: 1 placeholder, 1 guidance sentence; nothing in it is used for answers');
    expect(templateLabel(summariseTemplate(['Access is reviewed quarterly.']))).toBeNull();
  });
});
