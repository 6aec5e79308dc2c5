/**
 * A repository file with template text ends its processing with the template's label as its stage
 * ("template: 12 placeholders; 3 of 20 passages kept out of answers"), which the Library shows.
 */
const PREFIX = 'done; ';

export function templateStage(label: string): string {
  return `${PREFIX}${label}`;
}

/** The template label a processing stage carries, or null. */
export function templateOf(stage: string): string | null {
  return stage.startsWith(PREFIX) && /^template/.test(stage.slice(PREFIX.length)) ? stage.slice(PREFIX.length) : null;
}
