/**
 * Small generated files that used to stall or exhaust the service: used by the hostile
 * availability tests and by `npm run bench` ("under attack").
 */
import { strFromU8, strToU8, zipSync } from 'fflate';

const enc = (s: string) => new TextEncoder().encode(s);

/** A PDF from numbered objects (1 = catalog, 2 = page tree), with a correct cross-reference table. */
export function pdfFromObjects(objects: string[]): Uint8Array {
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return enc(out);
}

const PAGE = (contents: number) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} 0 R >>`;
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const stream = (content: string) => `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;

/** One page whose content nests `depth` graphics states (`q … Q`) around a line of text. */
export function nestedGraphicsPdf(depth: number): Uint8Array {
  const content = `${'q '.repeat(depth)}BT /F1 11 Tf 50 750 Td (Encryption at rest) Tj ET ${'Q '.repeat(depth)}`;
  return pdfFromObjects(['', '<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, PAGE(5), stream(content)]);
}

/** An ordinary one-page PDF. */
export function onePagePdf(text: string): Uint8Array {
  const content = `BT /F1 11 Tf 50 750 Td (${text.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET`;
  return pdfFromObjects(['', '<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [4 0 R] /Count 1 >>', FONT, PAGE(5), stream(content)]);
}

/** A page tree listing the same page `count` times. */
export function repeatedPagePdf(count: number): Uint8Array {
  const kids = Array.from({ length: count }, () => '4 0 R').join(' ');
  const content = 'BT /F1 11 Tf 50 750 Td (Backups are taken daily and kept for 30 days) Tj ET';
  return pdfFromObjects(['', '<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`, FONT, PAGE(5), stream(content)]);
}

/** A .docx whose word/document.xml inflates to about `bytes` (highly compressible paragraphs). */
export function expandingDocx(bytes: number): Uint8Array {
  const paragraph = '<w:p><w:r><w:t>Customer data is encrypted at rest with AES-256.</w:t></w:r></w:p>';
  const body = paragraph.repeat(Math.ceil(bytes / paragraph.length));
  return zipSync(
    {
      '[Content_Types].xml': enc(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      '_rels/.rels': enc(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      'word/document.xml': enc(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
      ),
    },
    { level: 6 },
  );
}

/** A CSV questionnaire of about `bytes`: a header row and numbered questions. */
export function largeCsvQuestionnaire(bytes: number): Uint8Array {
  const rows = ['ID,Question,Answer'];
  let size = rows[0]!.length;
  for (let i = 1; size < bytes; i++) {
    const row = `Q-${i},Is customer data number ${i} encrypted at rest and in transit?,`;
    rows.push(row);
    size += row.length + 1;
  }
  return enc(rows.join('\n'));
}

/** Markdown with a heading followed by a long run of spaces (a backtracking heading rule's worst case). */
export function spacedHeadingMarkdown(spaces: number): Uint8Array {
  return enc(`# a${' '.repeat(spaces)}b\n\nSome text about backups.\n`);
}

/** A one-page PDF padded to `bytes` with an unreferenced stream (a large scan-like file that reads fast). */
export function paddedPdf(bytes: number): Uint8Array {
  const pdf = onePagePdf('Backups are taken daily and kept for 30 days in a separate region.');
  const padding = `999 0 obj\n<< /Length ${bytes} >>\nstream\n`;
  const out = new Uint8Array(pdf.byteLength + padding.length + bytes + 20);
  // The padding goes before the cross-reference table's trailer would be looked for: readers find
  // `startxref` at the end, so put the padding first, after the header line.
  const header = 9; // "%PDF-1.4\n"
  out.set(pdf.subarray(0, header), 0);
  out.set(strToU8(padding), header);
  let at = header + padding.length;
  for (let i = 0; i < bytes; i += 64) out.fill(0x20 + (i % 90), at + i, Math.min(at + bytes, at + i + 64));
  at += bytes;
  out.set(strToU8('\nendstream\n'), at);
  at += 11;
  // Offsets in the cross-reference table move by the inserted length; rebuild them.
  const shift = at - header;
  const rest = strFromU8(pdf.subarray(header)).replace(/^(\d{10}) 00000 n $/gm, (_, o: string) => `${String(Number(o) + shift).padStart(10, '0')} 00000 n `);
  const restBytes = strToU8(rest.replace(/startxref\n(\d+)/, (_, o: string) => `startxref\n${Number(o) + shift}`));
  const result = new Uint8Array(at + restBytes.byteLength);
  result.set(out.subarray(0, at), 0);
  result.set(restBytes, at);
  return result;
}
