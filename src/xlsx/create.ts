/**
 * A new workbook from a small description (sheets, cells, merges, list dropdowns, column widths, a frozen
 * header): what the demo questionnaire and test builders need, written as the minimal valid package
 * Excel opens without repair. Text is written as inline strings, so there is no shared-strings part.
 * Everything else the project does to a workbook it did not create goes through `XlsxPackage`.
 */
import { zipSync } from 'fflate';
import { parseCell } from './ranges';
import { escapeAttribute, escapeText, utf8Encoder } from './xml';

export interface NewCellStyle {
  bold?: boolean;
  /** Font size in points (default 11). */
  size?: number;
  /** Solid fill `#RRGGBB`. */
  fill?: string;
  wrap?: boolean;
}

export interface NewCell extends NewCellStyle {
  value?: string | number | boolean | null;
  /** Without `=`; `value` is then its cached result. */
  formula?: string;
}

export interface NewSheet {
  name: string;
  hidden?: boolean;
  /** By A1 address. */
  cells: Record<string, NewCell | string | number>;
  merges?: string[];
  /** Column widths in characters, by 1-based column number. */
  widths?: Record<number, number>;
  /** In-cell dropdowns: the cells (`C5 C6:C9`) and the list source (`"Yes,No"` or a range such as `Lists!$A$1:$A$3`). */
  lists?: { sqref: string; source: string }[];
  /** Rows kept in view while scrolling (a frozen header). */
  frozenRows?: number;
}

export interface NewWorkbook {
  sheets: NewSheet[];
  /** Index of the sheet the workbook opens on. */
  activeSheet?: number;
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** cellXfs built from the distinct cell styles used, index 0 the default. */
class Styles {
  private readonly fonts = ['{}'];
  private readonly fills: string[] = [];
  private readonly xfs = ['{"font":0,"fill":0,"wrap":false}'];

  index(style: NewCellStyle): number {
    if (!style.bold && !style.size && !style.fill && !style.wrap) return 0;
    const font = this.add(this.fonts, JSON.stringify({ bold: !!style.bold, size: style.size ?? 11 }));
    const fill = style.fill ? this.add(this.fills, style.fill.slice(1).toUpperCase()) + 2 : 0; // 0 none, 1 gray125
    return this.add(this.xfs, JSON.stringify({ font, fill, wrap: !!style.wrap }));
  }

  private add(list: string[], key: string): number {
    const at = list.indexOf(key);
    return at >= 0 ? at : list.push(key) - 1;
  }

  xml(): string {
    const fonts = this.fonts.map((f) => {
      const { bold, size } = JSON.parse(f) as { bold?: boolean; size?: number };
      return `<font>${bold ? '<b/>' : ''}<sz val="${size ?? 11}"/><name val="Calibri"/><family val="2"/></font>`;
    });
    const fills = ['<fill><patternFill patternType="none"/></fill>', '<fill><patternFill patternType="gray125"/></fill>'].concat(
      this.fills.map((rgb) => `<fill><patternFill patternType="solid"><fgColor rgb="FF${rgb}"/><bgColor indexed="64"/></patternFill></fill>`),
    );
    const xfs = this.xfs.map((x) => {
      const { font, fill, wrap } = JSON.parse(x) as { font: number; fill: number; wrap: boolean };
      const applied = `${font ? ' applyFont="1"' : ''}${fill ? ' applyFill="1"' : ''}${wrap ? ' applyAlignment="1"' : ''}`;
      return `<xf numFmtId="0" fontId="${font}" fillId="${fill}" borderId="0" xfId="0"${applied}>${wrap ? '<alignment wrapText="1"/>' : ''}</xf>`;
    });
    return (
      `${XML_HEAD}<styleSheet xmlns="${MAIN}">` +
      `<fonts count="${fonts.length}">${fonts.join('')}</fonts>` +
      `<fills count="${fills.length}">${fills.join('')}</fills>` +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
      '</styleSheet>'
    );
  }
}

function cellXml(address: string, cell: NewCell, style: number): string {
  const s = style ? ` s="${style}"` : '';
  const v = cell.value;
  if (cell.formula !== undefined) {
    const cached = v === null || v === undefined ? '' : typeof v === 'number' ? `<v>${v}</v>` : '';
    const type = typeof v === 'string' ? ' t="str"' : typeof v === 'boolean' ? ' t="b"' : '';
    const text = typeof v === 'string' ? `<v>${escapeText(v)}</v>` : typeof v === 'boolean' ? `<v>${v ? 1 : 0}</v>` : cached;
    return `<c r="${address}"${s}${type}><f>${escapeText(cell.formula)}</f>${text}</c>`;
  }
  if (v === null || v === undefined || v === '') return `<c r="${address}"${s}/>`;
  if (typeof v === 'number') return `<c r="${address}"${s}><v>${v}</v></c>`;
  if (typeof v === 'boolean') return `<c r="${address}"${s} t="b"><v>${v ? 1 : 0}</v></c>`;
  return `<c r="${address}"${s} t="inlineStr"><is><t xml:space="preserve">${escapeText(v)}</t></is></c>`;
}

function sheetXml(sheet: NewSheet, styles: Styles, selected: boolean): string {
  const rows = new Map<number, { col: number; xml: string }[]>();
  for (const [address, raw] of Object.entries(sheet.cells)) {
    const ref = parseCell(address);
    if (!ref) throw new Error(`"${address}" is not a cell address`);
    const cell: NewCell = typeof raw === 'object' ? raw : { value: raw };
    const list = rows.get(ref.row) ?? [];
    list.push({ col: ref.column, xml: cellXml(address.toUpperCase(), cell, styles.index(cell)) });
    rows.set(ref.row, list);
  }
  const data = [...rows.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(
      ([r, cells]) =>
        `<row r="${r}">${cells
          .sort((a, b) => a.col - b.col)
          .map((c) => c.xml)
          .join('')}</row>`,
    )
    .join('');
  const frozen = sheet.frozenRows
    ? `<pane ySplit="${sheet.frozenRows}" topLeftCell="A${sheet.frozenRows + 1}" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A${sheet.frozenRows + 1}" sqref="A${sheet.frozenRows + 1}"/>`
    : '';
  const widths = Object.entries(sheet.widths ?? {}).sort((a, b) => Number(a[0]) - Number(b[0]));
  const cols = widths.length ? `<cols>${widths.map(([c, w]) => `<col min="${c}" max="${c}" width="${w}" customWidth="1"/>`).join('')}</cols>` : '';
  const merges = sheet.merges?.length
    ? `<mergeCells count="${sheet.merges.length}">${sheet.merges.map((m) => `<mergeCell ref="${m}"/>`).join('')}</mergeCells>`
    : '';
  const lists = sheet.lists?.length
    ? `<dataValidations count="${sheet.lists.length}">${sheet.lists
        .map(
          (l) =>
            `<dataValidation type="list" allowBlank="1" showInputMessage="1" showErrorMessage="1" sqref="${l.sqref}"><formula1>${escapeText(l.source)}</formula1></dataValidation>`,
        )
        .join('')}</dataValidations>`
    : '';
  return (
    `${XML_HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}">` +
    `<sheetViews><sheetView workbookViewId="0"${selected ? ' tabSelected="1"' : ''}>${frozen}</sheetView></sheetViews>` +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    cols +
    `<sheetData>${data}</sheetData>` +
    merges +
    lists +
    '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>' +
    '</worksheet>'
  );
}

/** The workbook as .xlsx bytes. */
export function createWorkbook(book: NewWorkbook): Uint8Array {
  const active = book.activeSheet ?? 0;
  const styles = new Styles();
  const files: Record<string, Uint8Array> = {};
  const text = (name: string, xml: string) => void (files[name] = utf8Encoder.encode(xml));
  book.sheets.forEach((sheet, i) => text(`xl/worksheets/sheet${i + 1}.xml`, sheetXml(sheet, styles, i === active)));
  const sheetTypes = book.sheets.map(
    (_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
  );
  const ordered: Record<string, Uint8Array> = {};
  text(
    '[Content_Types].xml',
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      `${sheetTypes.join('')}</Types>`,
  );
  text(
    '_rels/.rels',
    `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  text(
    'xl/workbook.xml',
    `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView activeTab="${active}"/></bookViews><sheets>` +
      book.sheets
        .map((s, i) => `<sheet name="${escapeAttribute(s.name)}" sheetId="${i + 1}"${s.hidden ? ' state="hidden"' : ''} r:id="rId${i + 1}"/>`)
        .join('') +
      '</sheets><calcPr calcId="191029"/></workbook>',
  );
  text(
    'xl/_rels/workbook.xml.rels',
    `${XML_HEAD}<Relationships xmlns="${PKG_REL}">` +
      book.sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
      `<Relationship Id="rId${book.sheets.length + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  );
  text('xl/styles.xml', styles.xml());
  // The package's own parts first, as Excel writes them.
  for (const name of ['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml']) ordered[name] = files[name]!;
  for (const [name, bytes] of Object.entries(files)) ordered[name] ??= bytes;
  return zipSync(ordered, { level: 6 });
}
