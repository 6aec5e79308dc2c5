/**
 * Where the Undo fill snapshot lives: the add-in's own storage (partitioned localStorage in Office),
 * keyed by the document, so Undo still works after the task pane was closed and reopened. Never in
 * document settings: they travel inside the file (and saving them clears Excel's undo stack).
 * The snapshot holds cell contents the analyst already had in the workbook, nothing secret.
 */

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A grid where every cell is the same is stored as that one value. */
export type Packed<T> = T[][] | { all: T };

export interface SnapshotBlock {
  /** A1 range on the tab, no sheet prefix. */
  address: string;
  /** `range.formulas` before the fill: constants (formula cells are never written). */
  formulas: Packed<string | number | boolean>;
  valueTypes: Packed<string>;
  numberFormat: Packed<string>;
  /** Fill colour per cell (null = no fill) when the fill highlighted these cells. */
  fills?: Packed<string | null>;
}

export interface UndoSnapshot {
  version: 1;
  documentKey: string;
  createdAt: string;
  cellCount: number;
  tabs: { tab: string; blocks: SnapshotBlock[] }[];
  /** Notes or comments the fill added (cells had none before): Undo deletes them. */
  annotations: { tab: string; address: string; kind: 'note' | 'comment' }[];
}

export function pack<T>(grid: T[][]): Packed<T> {
  const first = grid[0]?.[0];
  return grid.every((row) => row.every((v) => v === first)) && grid.length > 0 ? { all: first as T } : grid;
}

export function unpack<T>(packed: Packed<T>, rowCount: number, columnCount: number): T[][] {
  if (Array.isArray(packed)) return packed;
  return Array.from({ length: rowCount }, () => Array.from({ length: columnCount }, () => packed.all));
}

export function memoryStorage(): StorageLike {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

export class UndoStore {
  /** Kept when storage refuses the snapshot (quota), so Undo works until the pane closes. */
  private readonly memory = new Map<string, UndoSnapshot>();

  constructor(
    private readonly storage: StorageLike,
    private readonly prefix: string,
  ) {}

  private key(documentKey: string): string {
    return `${this.prefix}qfill:undo:v1:${documentKey}`;
  }

  /** Saves the snapshot; returns false when it only fits in memory (too big for storage). */
  save(snapshot: UndoSnapshot): boolean {
    this.memory.set(snapshot.documentKey, snapshot);
    try {
      this.storage.setItem(this.key(snapshot.documentKey), JSON.stringify(snapshot));
      return true;
    } catch {
      try {
        this.storage.removeItem(this.key(snapshot.documentKey));
      } catch {
        // nothing more to do
      }
      return false;
    }
  }

  load(documentKey: string): UndoSnapshot | null {
    const inMemory = this.memory.get(documentKey);
    if (inMemory) return inMemory;
    let text: string | null = null;
    try {
      text = this.storage.getItem(this.key(documentKey));
    } catch {
      return null;
    }
    if (!text) return null;
    try {
      const parsed = JSON.parse(text) as UndoSnapshot;
      return parsed && parsed.version === 1 && Array.isArray(parsed.tabs) ? parsed : null;
    } catch {
      return null;
    }
  }

  clear(documentKey: string): void {
    this.memory.delete(documentKey);
    try {
      this.storage.removeItem(this.key(documentKey));
    } catch {
      // storage gone: nothing to clear
    }
  }
}
