// The zip codecs: Node's zlib (service, CLI) and fflate (the browser workbench) read and rewrite the same
// packages byte for byte, and both refuse an entry that inflates beyond its declared size.
import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { XlsxPackage, isXlsxError } from '../../src/xlsx';
import { defaultZipCodec, nodeZipCodec, portableZipCodec, type ZipCodec } from '../../src/xlsx/codec';
import { comparePackages } from '../../src/xlsx/compare';
import { readZip } from '../../src/xlsx/zip';
import { smallWorkbook } from './helpers';

const node = nodeZipCodec();

function codeOf(f: () => unknown): string | null {
  try {
    f();
    return null;
  } catch (e) {
    if (isXlsxError(e)) return e.code;
    throw e;
  }
}

describe('zip codecs', () => {
  it('runs on Node zlib in Node (fflate is the fallback elsewhere)', () => {
    expect(node?.name).toBe('node-zlib');
    expect(defaultZipCodec().name).toBe('node-zlib');
  });

  for (const codec of [node!, portableZipCodec] as ZipCodec[]) {
    describe(codec.name, () => {
      it('inflates what the other deflated, and gives up past the limit', () => {
        const text = new TextEncoder().encode('<row r="1"><c r="A1"/></row>'.repeat(4_000));
        const other = codec === portableZipCodec ? node! : portableZipCodec;
        const packed = other.deflateRaw(text, 6);
        const back = codec.inflateRaw(packed, text.length)!;
        expect(Buffer.from(back.buffer, back.byteOffset, back.length).equals(text)).toBe(true);
        expect(codec.inflateRaw(packed, text.length - 1)).toBeNull();
        expect(() => codec.inflateRaw(packed.subarray(0, packed.length >> 1), text.length)).toThrow();
      });

      it('reads, writes and compares a workbook the same way', async () => {
        const input = await smallWorkbook();
        const pkg = XlsxPackage.open(input, 'q.xlsx', undefined, codec);
        const out = pkg.applyWrites([{ tab: 'Questions', address: 'C2', value: 'Yes, by codec' }]);
        const back = XlsxPackage.open(out.bytes, 'out.xlsx', undefined, codec);
        expect(back.readCells('Questions', ['C2']).get('C2')?.value).toBe('Yes, by codec');
        const diff = comparePackages(input, out.bytes);
        expect(diff.changedParts.sort()).toEqual(['xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
        expect(diff.cellChanges.map((c) => c.address)).toEqual(['C2']);
      });

      it('refuses an entry that declares 100 bytes and inflates to megabytes, as a zip bomb', async () => {
        const liar = zipSync({ ...unzipSync(await smallWorkbook()), 'xl/worksheets/sheet1.xml': new Uint8Array(4 * 1024 * 1024).fill(32) }, { level: 9 });
        const e = readZip(liar).byName.get('xl/worksheets/sheet1.xml')!;
        const patched = liar.slice();
        const view = new DataView(patched.buffer);
        view.setUint32(e.centralStart + 24, 100, true);
        view.setUint32(e.localHeaderOffset + 22, 100, true);
        const pkg = XlsxPackage.open(patched, 'liar.xlsx', undefined, codec);
        expect(codeOf(() => pkg.readCells('Questions', ['A1']))).toBe('zip_bomb');
      });
    });
  }
});
