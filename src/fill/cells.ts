/**
 * The cell and range vocabulary (src/xlsx/a1.ts) as the task pane reaches it: the pane may import
 * src/fill but not src/xlsx, and this small module keeps the fill's barrel out of its first paint.
 */
export { type Cell, type CellCoordinate, type CellRef, parseCellRef, type Range, type Rect } from '../xlsx/a1';
