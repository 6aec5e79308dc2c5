/** Word documents through mammoth: its HTML keeps headings (Heading 1..6 styles) as <h1>..<h6>. */
import mammoth from 'mammoth';
import { ExtractError } from '../types';
import { htmlBlocks } from './html';
import type { TextBlock } from '../types';

export async function docxBlocks(bytes: Uint8Array, filename: string): Promise<TextBlock[]> {
  let html: string;
  try {
    const result = await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    html = result.value;
  } catch (error) {
    throw new ExtractError(`${filename} is not a readable Word document: ${(error as Error).message}`);
  }
  return htmlBlocks(`<body>${html}</body>`).blocks;
}
