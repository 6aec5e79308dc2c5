/**
 * Section paths from the headings met while walking a sheet. Levels come from generic signals only:
 * numbering (`1`, `1.2`, `Section 3.1`), look (headings formatted alike are siblings) and order (a
 * heading that directly follows another heading of a different look is its subtitle). Headings above
 * the first question whose look never comes back below it are the document's title block
 * (`Vendor Assessment Tool`, `Working Group`), not sections.
 */

export interface Heading {
  row: number;
  text: string;
  /** Formatting signature (font and fill); '' when the source has none (CSV). */
  look: string;
  /** Depth of its numbering (`2` → 1, `2.1` → 2), null when unnumbered. */
  depth: number | null;
  /** For a section row numbered in the id column (`2.1`): that number, which its questions' ids extend. */
  outline?: string;
}

/** A question event carries its id so that `2.2` closes the section `2.1` before it. */
export type WalkEvent = { heading: Heading } | { question: number; id: string | null };

const NUMBERED_RE = /^(?:(?:section|part|chapter)\s+)?(\d{1,3}(?:\.\d{1,3}){0,4})\.?(?:[):]|\s+[-–—])?\s+\S/i;

/** `1. General` → 1, `2.3 Keys` → 2, `Section 4: Data` → 1; null when the text carries no number. */
export function numberingDepth(text: string): number | null {
  const m = NUMBERED_RE.exec(text.trim());
  return m ? m[1]!.split('.').length : null;
}

/** Depth of a bare outline number used as an id (`1`, `1.2.`) ; null for other ids. */
export function outlineDepth(id: string): number | null {
  const m = /^(\d{1,3}(?:\.\d{1,3}){0,4})\.?$/.exec(id.trim());
  return m ? m[1]!.split('.').length : null;
}

function sameLevel(onStack: Heading, incoming: Heading): boolean {
  if (onStack.depth !== null && incoming.depth !== null) return onStack.depth >= incoming.depth;
  return onStack.look === incoming.look;
}

/** The section path of each question, by question index. */
export function sectionPaths(events: readonly WalkEvent[]): Map<number, string[]> {
  const firstQuestion = events.findIndex((e) => 'question' in e);
  const looksBelow = new Set<string>();
  events.forEach((e, i) => {
    if (i > firstQuestion && 'heading' in e) looksBelow.add(e.heading.look);
  });
  const isTitleBlock = (h: Heading, i: number) => i < firstQuestion && h.depth === null && looksBelow.size > 0 && !looksBelow.has(h.look);

  const paths = new Map<number, string[]>();
  const stack: Heading[] = [];
  let afterHeading = false;
  events.forEach((e, i) => {
    if ('question' in e) {
      const id = e.id;
      if (id !== null && outlineDepth(id) !== null) {
        const outside = stack.findIndex((h) => h.outline !== undefined && !id.startsWith(`${h.outline}.`));
        if (outside >= 0) stack.length = outside;
      }
      paths.set(
        e.question,
        stack.map((h) => h.text),
      );
      afterHeading = false;
      return;
    }
    const h = e.heading;
    if (isTitleBlock(h, i)) return;
    const level = stack.findIndex((s) => sameLevel(s, h));
    if (level >= 0) stack.length = level;
    // A new kind of heading right after questions is taken as the next sibling of the deepest
    // section; right after another heading it is that heading's subtitle.
    else if (!afterHeading && h.depth === null && stack.length > 0) stack.length -= 1;
    stack.push(h);
    afterHeading = true;
  });
  return paths;
}
