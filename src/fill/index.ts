export * from './types';
export {
  parseA1,
  parseA1Range,
  parseCellRef,
  toA1,
  toA1Range,
  columnToLetters,
  lettersToColumn,
  normaliseAddress,
  quoteSheetName,
  MAX_COLUMN,
  MAX_ROW,
} from '../xlsx/a1';
export type { Cell, CellCoordinate, CellRef, Range, Rect } from '../xlsx/a1';
export { resolveTab } from './tabs';
export { coerceToAllowed, matchAllowed } from './coerce';
export { excelParsesAsFormula, needsTextProtection, startsLikeFormula } from './text-safety';
export { groupIntoBlocks, halves } from './blocks';
export type { CellBlock } from './blocks';
export { planFill, targetCells, topSources, MAX_SOURCES } from './plan';
export { bySourceRank, pickAnswer, primarySlot, slotValue, slotKey, slotResponseFor, isListSlot } from './answer';
export type { ChoosableAnswer } from './answer';
export { buildReport, summarise, describeAnnotationGaps, describeModelUsage, modelUsage } from './report';
export { cellRefusal, cellHasValue, refusalDetail } from './cell-safety';
export type { CellRefusal, CellSafetyOptions } from './cell-safety';
export { anchorSlotsToMerges } from './merges';
