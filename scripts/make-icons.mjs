// Draws the add-in icons (a green sheet with a white check mark) as PNGs, so no image tool is needed.
// Run once with `node scripts/make-icons.mjs`; the PNGs are committed under assets/.
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};

function distToSegment(px, py, ax, ay, bx, by) {
  const dx = bx - ax,
    dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function icon(size) {
  const ss = 4; // supersampling for smooth edges
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = [0];
    for (let x = 0; x < size; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < ss; sy++)
        for (let sx = 0; sx < ss; sx++) {
          const u = (x + (sx + 0.5) / ss) / size,
            v = (y + (sy + 0.5) / ss) / size;
          const rad = 0.18,
            inset = 0.04;
          const cx = Math.min(Math.max(u, inset + rad), 1 - inset - rad);
          const cy = Math.min(Math.max(v, inset + rad), 1 - inset - rad);
          if (Math.hypot(u - cx, v - cy) > rad) continue;
          const check = Math.min(distToSegment(u, v, 0.26, 0.52, 0.43, 0.69), distToSegment(u, v, 0.43, 0.69, 0.76, 0.33));
          if (check < 0.075) {
            r += 255;
            g += 255;
            b += 255;
          } else {
            r += 0x21;
            g += 0x73;
            b += 0x46;
          }
          a += 255;
        }
      const n = ss * ss;
      row.push(Math.round(r / n), Math.round(g / n), Math.round(b / n), Math.round(a / n));
    }
    rows.push(Buffer.from(row));
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

for (const size of [16, 32, 64, 80, 128]) writeFileSync(new URL(`../assets/icon-${size}.png`, import.meta.url), icon(size));
console.log('icons written');
