// Fill colours as Excel shows them: theme colours from Office's default theme with their tint, so the workbench
// draws a "Text 1, lighter 35%" header grey, not black.
import { describe, expect, it } from 'vitest';
import { cellFormats, withTint } from '../../src/xlsx/styles';

describe('fill colours', () => {
  it("applies Excel's tint to theme and RGB colours", () => {
    expect(withTint('#000000', 0.3499862666707358)).toBe('#595959');
    expect(withTint('#4472C4', -0.249977111117893)).toBe('#2F5597');
    expect(withTint('#4472C4', 0.7999816888943144)).toBe('#DAE3F3');
    expect(withTint('#FFFFFF', -0.1499984740745262)).toBe('#D9D9D9');
    expect(withTint('#123456', 0)).toBe('#123456');
  });

  it('reads tinted fills from styles.xml', () => {
    const styles = `<styleSheet><fills count="3"><fill><patternFill patternType="none"/></fill>
      <fill><patternFill patternType="solid"><fgColor theme="1" tint="0.3499862666707358"/></patternFill></fill>
      <fill><patternFill patternType="solid"><fgColor rgb="FF1F3864"/></patternFill></fill></fills>
      <cellXfs count="3"><xf fillId="0"/><xf fillId="1"/><xf fillId="2"/></cellXfs></styleSheet>`;
    expect(cellFormats(styles).map((f) => f.fill)).toEqual([null, '#595959', '#1F3864']);
  });
});
