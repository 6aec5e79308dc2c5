/**
 * A library export uploaded back ends its processing with what became of its decisions as its stage
 * ("done; library export: 3 approvals and 1 settlement applied"), which the API shows as the file's note.
 */
const PREFIX = 'done; library export: ';

export function importStage(sentence: string): string {
  return `done; ${sentence}`;
}

/** The sentence about an export's decisions a processing stage carries, or null. */
export function importNoteOf(stage: string): string | null {
  return stage.startsWith(PREFIX) ? stage.slice('done; '.length) : null;
}
