// @vitest-environment happy-dom
/**
 * A file of the Library pane with the note the service records when the answer library's export is
 * uploaded back: what became of its approvals and settlements, in plain words; a member's upload, whose
 * decisions were not applied, as a warning saying its answers are unapproved.
 */
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { RepositoryFile } from '../../../src/api/schemas';
import { FileRow } from '../../../src/taskpane/library/FileRow';
import { importNote } from '../../../src/taskpane/library/labels';
import { repositoryFile } from '../fake-service';

afterEach(cleanup);

const noop = () => {};
function row(file: RepositoryFile) {
  render(
    <ul>
      <FileRow file={file} canDelete={false} confirming={false} deleting={false} onAsk={noop} onCancel={noop} onDelete={noop} />
    </ul>,
  );
  return screen.getByRole('listitem');
}

const exported = (patch: Partial<RepositoryFile>) =>
  repositoryFile(4, 'answer-library.xlsx', { document_type: 'qna', qa_count: 3, status: 'ready', status_display: 'Ready', processing_stage: 'done', ...patch });

describe('the import note of a library export uploaded back', () => {
  it("shows what an admin's upload applied, in plain words", () => {
    const li = row(exported({ note: 'library export: 1 approval and 1 settlement applied' }));
    const note = screen.getByText('Answer library export: 1 approval and 1 settlement applied to its answers.');
    expect(li.contains(note)).toBe(true);
    expect(note.className).not.toContain('qf-msg-warn');
  });

  it("warns that a member's upload was learned unapproved, and why", () => {
    row(
      exported({
        note: "library export: its 2 approvals and settlements not applied (only an admin or repository manager's upload applies them); its entries are unapproved",
      }),
    );
    const note = screen.getByText(
      "Answer library export: its 2 approvals and settlements were not applied (only an admin or repository manager's upload applies them), so its answers are in the library unapproved.",
    );
    expect(note.className).toContain('qf-msg-warn');
  });

  it('shows no note for other files, nor for an export still processing', () => {
    const plain = row(repositoryFile(5, 'policy.pdf', { status: 'ready', note: 'duplicate of policy-v1.pdf' }));
    expect(plain.textContent).not.toMatch(/Answer library export/);
    cleanup();
    const busy = row(
      exported({ status: 'processing', status_display: 'Processing', processing_percent: 40, note: 'library export: 1 approval and 0 settlements applied' }),
    );
    expect(busy.textContent).not.toMatch(/Answer library export/);
  });

  it('keeps a sentence it does not know as the service wrote it', () => {
    expect(importNote('library export: nothing to apply')).toEqual({ text: 'Answer library export: nothing to apply.', warn: false });
    expect(importNote(undefined)).toBeNull();
    expect(importNote("library export: its 1 approval or settlement not applied (only an admin's upload applies them); its entries are unapproved")?.text).toBe(
      "Answer library export: its 1 approval or settlement was not applied (only an admin's upload applies them), so its answers are in the library unapproved.",
    );
  });
});
