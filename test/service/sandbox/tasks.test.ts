import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_LIMITS } from '../../../src/service/files/limits';
import { indexEntries } from '../../../src/service/knowledge/entries';
import { extractDocument } from '../../../src/service/knowledge';
import { extractTask } from '../../../src/service/sandbox/tasks';
import { KB_TEXT } from '../helpers';

const read = (text: string, filename: string) => extractTask({ source: new TextEncoder().encode(text), filename, limits: DEFAULT_READ_LIMITS });

describe('the reader task', () => {
  it("sends back the document's index entries and subject, not its pages", async () => {
    const reply = await read(KB_TEXT, 'policy.txt');
    const whole = await extractDocument(new TextEncoder().encode(KB_TEXT), 'policy.txt');
    expect(reply).not.toHaveProperty('pages');
    expect(reply).not.toHaveProperty('qa');
    expect(reply.has_text).toBe(true);
    expect(reply.file_format).toBe(whole.file_format);
    expect(reply.document_type).toBe(whole.document_type);
    expect(reply.prepared_index.passages).toEqual(indexEntries(whole).passages);
    expect(reply.prepared_index.subject).toBeNull();
  });

  it('counts answered pairs as text: a spreadsheet of answers has no pages but is indexed', async () => {
    const reply = await read('Question,Answer\nDo you encrypt data at rest?,Yes - AES-256 for all stored data\n', 'answers.csv');
    expect(reply.has_text).toBe(true);
    expect(reply.prepared_index.passages).toEqual([]);
    expect(reply.prepared_index.qa.map((q) => q.question)).toEqual(['Do you encrypt data at rest?']);
  });
});
