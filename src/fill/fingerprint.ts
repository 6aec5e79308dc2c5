/** FNV-1a, 32 bits: a short fingerprint of a text, to tell texts apart without keeping them. Not a secret's hash. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
