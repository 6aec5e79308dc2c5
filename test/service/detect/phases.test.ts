/** The layout phases one by one, on small grids built in memory. */
import { describe, expect, it } from 'vitest';
import { emptyGrid, setCell, type SheetGrid } from '../../../src/service/detect/grid';
import { findHeaderRows } from '../../../src/service/detect/header-rows';
import { findIdColumn } from '../../../src/service/detect/id-column';
import { findQuestionColumn } from '../../../src/service/detect/question-column';
import { walkRows } from '../../../src/service/detect/row-walk';
import { sheetView, type SheetView } from '../../../src/service/detect/sheet-view';
import { findSlotColumns } from '../../../src/service/detect/slot-columns';
import { validationLookup } from '../../../src/service/detect/validation';

const PLAIN = { locked: () => false, bold: () => false, look: () => '' };

function view(rows: (string | null)[][], edit?: (g: SheetGrid) => void): SheetView {
  const g = emptyGrid('Q');
  rows.forEach((cells, i) => cells.forEach((v, j) => v !== null && setCell(g, i + 1, j + 1, { value: v, formula: false, style: 0 })));
  edit?.(g);
  return sheetView(g, validationLookup(g, null, 0), PLAIN);
}

const TABLE = [
  ['Vendor questionnaire v1.2', null, null, null],
  ['ID', 'Question', 'Answer', 'Comments'],
  ['General', null, null, null],
  ['G-1', 'Do you have a security team?', 'Yes', null],
  ['G-2', 'Is there a written policy?', null, 'See policy'],
  ['G-3', 'Describe your backup schedule', null, null],
];

describe('findQuestionColumn', () => {
  it('takes an explicit Question header with text below it', () => {
    expect(findQuestionColumn(view(TABLE))).toEqual({ col: 2, headerRow: 2 });
  });

  it('without a header, takes the column richest in question-like text', () => {
    const v = view([
      ['Team', 'Do you encrypt data at rest?'],
      ['Team', 'Are backups tested?'],
      ['Team', 'Not a question'],
    ]);
    expect(findQuestionColumn(v)).toEqual({ col: 2, headerRow: null });
  });

  it('finds none in a sheet of labels', () => {
    expect(
      findQuestionColumn(
        view([
          ['Name', 'Value'],
          ['Total', '3'],
        ]),
      ),
    ).toBeNull();
  });
});

describe('findIdColumn', () => {
  it('takes the id-like, unique column beside the questions and its main id shape', () => {
    const v = view(TABLE);
    expect(findIdColumn(v, 2, [3, 4, 5, 6], 2)).toEqual({ col: 1, mainShape: 'A-9' });
  });

  it('refuses a column whose ids repeat', () => {
    const v = view([
      ['X-1', 'Do you have a team?'],
      ['X-1', 'Do you have a policy?'],
      ['X-1', 'Do you have backups?'],
    ]);
    expect(findIdColumn(v, 2, [1, 2, 3], null)).toBeNull();
  });
});

describe('findHeaderRows', () => {
  it('reads the slot headers right of the question column', () => {
    const rows = findHeaderRows(view(TABLE), 2, 1);
    expect(rows.map((h) => [h.row, [...h.columns]])).toEqual([
      [
        2,
        [
          [3, 'Answer'],
          [4, 'Comments'],
        ],
      ],
    ]);
  });

  it('a section row that carries slot headers is a header row with a title', () => {
    const v = view([
      ['Company Overview', null, 'Vendor Answers', 'Additional Information'],
      ['C-1', 'Do you have a team?', 'Yes', null],
    ]);
    const [h] = findHeaderRows(v, 2, 1);
    expect(h.title).toEqual({ col: 1, text: 'Company Overview' });
    expect([...h.columns.values()]).toEqual(['Vendor Answers', 'Additional Information']);
  });

  it('reference headers alone (Score, Guidance) make no header row', () => {
    const v = view([
      ['Scores', null, 'Score', 'Guidance'],
      [null, 'Do you have a team?', '3', 'Look for X'],
    ]);
    expect(findHeaderRows(v, 2, null)).toEqual([]);
  });
});

describe('findSlotColumns', () => {
  it('gives each headed column a unique role', () => {
    const v = view(TABLE);
    const cols = findSlotColumns(v, findHeaderRows(v, 2, 1), [4, 5, 6], [2, 1]);
    expect([...cols.values()].map((c) => [c.col, c.role, c.header])).toEqual([
      [3, 'answer', 'Answer'],
      [4, 'comment', 'Comments'],
    ]);
  });

  it('without header rows, list-validated columns are the answers', () => {
    const v = view(
      [
        [null, 'Do you have a team?', null],
        [null, 'Do you have a policy?', null],
      ],
      (g) => {
        g.validations.push({ type: 'list', formula1: '"Yes,No"', ranges: [{ top: 1, left: 3, bottom: 2, right: 3 }] });
        g.maxCol = 3;
      },
    );
    const cols = findSlotColumns(v, [], [1, 2], [2]);
    expect([...cols.values()].map((c) => [c.col, c.role, c.header])).toEqual([[3, 'answer', 'Answer']]);
  });
});

describe('walkRows', () => {
  it('tells headings from questions and gives each question its slots', () => {
    const v = view(TABLE);
    const id = findIdColumn(v, 2, [3, 4, 5, 6], 2);
    const headerRows = findHeaderRows(v, 2, 1);
    const slotColumns = findSlotColumns(v, headerRows, [4, 5, 6], [2, 1]);
    const walk = walkRows({ view: v, questionCol: 2, idCol: 1, id, explicitHeaderRow: 2, headerRows, slotColumns, answerCol: 3 });
    expect(walk.questions.map((q) => [q.original_id, q.question_coordinate])).toEqual([
      ['G-1', 'B4'],
      ['G-2', 'B5'],
      ['G-3', 'B6'],
    ]);
    expect(walk.events.filter((e) => 'heading' in e).map((e) => ('heading' in e ? e.heading.text : ''))).toEqual(['Vendor questionnaire v1.2', 'General']);
    expect(walk.questions[1].answer_slots.map((s) => [s.role, s.coordinate, s.value])).toEqual([
      ['answer', 'C5', null],
      ['comment', 'D5', 'See policy'],
    ]);
    expect(walk.headerOf).toEqual([2, 2, 2]);
  });
});
