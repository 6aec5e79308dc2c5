/**
 * The Excel JavaScript API (a subset) over the in-memory workbook, with Office.js semantics:
 * proxies queue commands, nothing happens until `context.sync()`, reading a property that was not
 * loaded and synced throws `PropertyNotLoaded`, a request over the payload limit fails whole, errors
 * carry Office codes. Methods above the host's configured ExcelApi version fail at sync with
 * `ApiNotFound`, as on an older Excel.
 */
import { type Cell, quoteSheetName, toA1 } from '../../xlsx/a1';
import { HostOfficeError, propertyNotLoaded } from './errors';
import type { ExcelHost } from './host';
import {
  cellAt,
  cellsOf,
  enterValue,
  getCell,
  intersects,
  mergeAt,
  parseRect,
  putCell,
  readFormula,
  readText,
  readValue,
  readValueType,
  rectAddress,
  usedRect,
  type HostCell,
  type HostSheet,
  type HostValidation,
  type Rect,
} from './model';

interface Action {
  payload: unknown;
  apply: () => void;
}

type LoadSpec = string | string[] | { select?: string | string[]; expand?: string | string[] } | undefined;

function parseLoadSpec(spec: LoadSpec): string[] {
  if (spec === undefined || spec === null) return [];
  if (typeof spec === 'string')
    return spec
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(spec)) return spec.flatMap((s) => parseLoadSpec(s));
  return [...parseLoadSpec(spec.select), ...parseLoadSpec(spec.expand)];
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** UTF-8 byte length without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

// ---- Request context ---------------------------------------------------------------------------

export class HostRequestContext {
  readonly workbook: WorkbookProxy;
  readonly application: ApplicationProxy;
  readonly trackedObjects: { add: (o: unknown) => void; remove: (o: unknown) => void };
  /** Set by Excel.run({ mergeUndoGroup }) (ExcelApi 1.20); recorded for tests. */
  mergeUndoGroup = false;
  private queue: Action[] = [];
  /** What the running sync's loads return: measured against the response limit, then handed over. */
  private responses: { payload: unknown; deliver: () => void }[] | null = null;

  constructor(readonly host: ExcelHost) {
    this.workbook = new WorkbookProxy(this);
    this.application = new ApplicationProxy(this);
    this.trackedObjects = {
      add: (o) => {
        const items = Array.isArray(o) ? o : [o];
        host.stats.tracked += items.length;
      },
      remove: (o) => {
        const items = Array.isArray(o) ? o : [o];
        host.stats.untracked += items.length;
      },
    };
  }

  _enqueue(payload: unknown, apply: () => void): void {
    this.queue.push({ payload, apply });
  }

  /**
   * A load's result: `payload` is what travels back to the add-in, `deliver` makes it readable on
   * the proxy. Nothing is delivered when the response is over the limit (the whole sync fails).
   */
  _respond(payload: unknown, deliver: () => void): void {
    if (this.responses) this.responses.push({ payload, deliver });
    else deliver();
  }

  /** Queues an action that needs an API set; on an older host it fails at sync like Excel does. */
  _enqueueGated(version: string, api: string, payload: unknown, apply: () => void): void {
    this._enqueue(payload, () => {
      if (!this.host.supports(version)) {
        throw new HostOfficeError('ApiNotFound', `${api} needs ExcelApi ${version}; this Excel supports ${this.host.excelApiVersion}.`);
      }
      apply();
    });
  }

  get pendingCommands(): number {
    return this.queue.length;
  }

  async sync<T>(passThroughValue?: T): Promise<T | undefined> {
    const actions = this.queue;
    this.queue = [];
    const host = this.host;
    const bytes = utf8Length(JSON.stringify(actions.map((a) => a.payload)));
    host.stats.syncs += 1;
    host.stats.payloadBytes.push(bytes);
    await new Promise<void>((resolve) => setTimeout(resolve, host.syncLatencyMs));
    if (bytes > host.payloadLimitBytes) {
      host.stats.rejectedSyncs += 1;
      throw new HostOfficeError(
        'RequestPayloadSizeLimitExceeded',
        `The request payload size (${bytes} bytes) has exceeded the limit of ${host.payloadLimitBytes} bytes.`,
      );
    }
    const responses: { payload: unknown; deliver: () => void }[] = [];
    this.responses = responses;
    try {
      for (const action of actions) action.apply();
    } catch (e) {
      throw e instanceof HostOfficeError ? e : new HostOfficeError('GeneralException', e instanceof Error ? e.message : String(e));
    } finally {
      this.responses = null;
      host.afterSync();
    }
    // Excel on the web also refuses a response over 5 MB (a load of many long values): the changes
    // the request made stay made, but none of the loaded values arrive.
    const responseBytes = responses.length ? utf8Length(JSON.stringify(responses.map((r) => r.payload))) : 0;
    host.stats.responseBytes.push(responseBytes);
    if (responseBytes > host.responseLimitBytes) {
      host.stats.rejectedSyncs += 1;
      throw new HostOfficeError('ResponsePayloadSizeLimitExceeded', `The response would be ${responseBytes} bytes; the limit is ${host.responseLimitBytes}.`);
    }
    for (const r of responses) r.deliver();
    return passThroughValue;
  }
}

// ---- Base client object ------------------------------------------------------------------------

abstract class ClientObject {
  protected readonly _loaded = new Map<string, unknown>();
  protected _isNull: boolean | undefined;
  protected abstract readonly _kind: string;

  constructor(
    readonly context: HostRequestContext,
    protected readonly _nullable = false,
  ) {
    if (_nullable) {
      // *OrNullObject: isNullObject is known after the next sync.
      context._enqueue({ resolve: 'orNullObject' }, () => {
        this._isNull = !this._exists();
      });
    }
  }

  /** The scalar properties `load()` accepts; a collection or a container has none of its own. */
  protected _scalars(): readonly string[] {
    return [];
  }
  protected _read(_name: string): unknown {
    return undefined;
  }
  protected _child(_name: string): ClientObject | null {
    return null;
  }
  /** For *OrNullObject proxies: whether the target exists (evaluated during sync). */
  protected _exists(): boolean {
    return true;
  }

  load(spec?: LoadSpec): this {
    const names = parseLoadSpec(spec);
    const scalars: string[] = names.length === 0 ? [...this._scalars()] : [];
    for (const name of names) {
      const [head, ...rest] = name.split('/');
      const child = this._child(head!);
      if (child) {
        child.load(rest.length ? rest.join('/') : undefined);
        continue;
      }
      if (!this._scalars().includes(head!)) {
        throw new HostOfficeError('InvalidArgument', `${this._kind} has no property "${head}" to load.`);
      }
      scalars.push(head!);
    }
    if (scalars.length > 0) {
      this.context._enqueue({ load: this._kind, select: scalars }, () => {
        if (this._nullable && !this._exists()) {
          this._isNull = true;
          return;
        }
        const values = scalars.map((p) => [p, clone(this._read(p))] as const);
        this.context._respond(values, () => {
          for (const [p, v] of values) this._loaded.set(p, v);
        });
      });
    }
    return this;
  }

  get isNullObject(): boolean {
    if (this._isNull === undefined) throw propertyNotLoaded('isNullObject', this._kind);
    return this._isNull;
  }

  /** A loaded property's value; throws PropertyNotLoaded like Office.js when it was not loaded and synced. */
  _get<T>(name: string): T {
    if (!this._loaded.has(name)) throw propertyNotLoaded(name, this._kind);
    return this._loaded.get(name) as T;
  }

  /** Reads properties immediately (during sync, when a collection resolves its items). */
  _loadNow(names: readonly string[] = this._scalars()): void {
    for (const n of names) this._loaded.set(n, clone(this._read(n)));
    this._isNull = false;
  }

  track(): this {
    this.context.host.stats.tracked += 1;
    return this;
  }

  untrack(): this {
    this.context.host.stats.untracked += 1;
    return this;
  }

  toJSON(): Record<string, unknown> {
    return Object.fromEntries(this._loaded);
  }
}

// ---- Members that only forward, generated from tables -------------------------------------------

/** What a proxy's scalar and child tables install on its prototype (protected in the class, so by name here). */
interface ProxyPrototype {
  _scalars(): readonly string[];
  _read(name: string): unknown;
  _child(name: string): ClientObject | null;
}

/**
 * A proxy's loadable properties from a table: each name, and how its value is read from the host
 * during sync from what the proxy stands for (`locate`, e.g. the range's sheet and cells). Office.js
 * exposes each as a property that throws PropertyNotLoaded until it was loaded and synced: those
 * accessors are installed here (classes `declare` their types); a setter the class defines is kept.
 */
function scalars<P extends ClientObject, T>(cls: { prototype: P }, locate: (proxy: P) => T, table: Record<string, (target: T, proxy: P) => unknown>): void {
  const proto = cls.prototype as unknown as ProxyPrototype;
  const names = Object.freeze(Object.keys(table));
  proto._scalars = () => names;
  proto._read = function (this: P, name: string) {
    const read = table[name];
    return read ? read(locate(this), this) : undefined;
  };
  for (const name of names) {
    const own = Object.getOwnPropertyDescriptor(cls.prototype, name);
    Object.defineProperty(cls.prototype, name, {
      configurable: true,
      get(this: ClientObject) {
        return this._get(name);
      },
      ...(own?.set ? { set: own.set } : {}),
    });
  }
}

/**
 * A proxy's child objects from a table: each is made on first use and kept (`range.format` is the same
 * object every time, as in Office.js). Those named in `loadable` can be loaded through the parent
 * (`range.load('format/fill/color')`).
 */
function children<P extends ClientObject>(
  cls: { prototype: P },
  table: Record<string, (proxy: P) => unknown>,
  loadable: readonly string[] = Object.keys(table),
): void {
  const made = new WeakMap<object, Map<string, unknown>>();
  const child = (proxy: P, name: string) => {
    let mine = made.get(proxy);
    if (!mine) made.set(proxy, (mine = new Map()));
    if (!mine.has(name)) mine.set(name, table[name]!(proxy));
    return mine.get(name);
  };
  for (const name of Object.keys(table)) {
    Object.defineProperty(cls.prototype, name, {
      configurable: true,
      get(this: P) {
        return child(this, name);
      },
    });
  }
  (cls.prototype as unknown as ProxyPrototype)._child = function (this: P, name: string) {
    return loadable.includes(name) ? (child(this, name) as ClientObject) : null;
  };
}

/** `getCount()`: a ClientResult with a count read during sync, behind an API set when `gate` names one. */
function countResult(context: HostRequestContext, gate: readonly [string, string] | null, call: string, count: () => number): HostClientResult<number> {
  const result = new HostClientResult<number>();
  const apply = () => result._resolve(count());
  if (gate) context._enqueueGated(gate[0], gate[1], { call }, apply);
  else context._enqueue({ call }, apply);
  return result;
}

/**
 * A proxy for something found during sync (a sheet, a range, a note): when it is gone that is
 * ItemNotFound, or, for the *OrNullObject methods, a null object.
 */
abstract class LocatedProxy<T> extends ClientObject {
  constructor(
    context: HostRequestContext,
    private readonly _locate: () => T | null,
    nullable = false,
  ) {
    super(context, nullable);
  }
  /** What ItemNotFound says when the target is gone. */
  protected abstract readonly _notFound: string;
  protected _located(): T {
    const target = this._locate();
    if (target === null) throw new HostOfficeError('ItemNotFound', this._notFound);
    return target;
  }
  protected override _exists(): boolean {
    return this._locate() !== null;
  }
}

/** A collection: its `items` exist once a `load()` of it was synced. */
abstract class CollectionProxy<T> extends ClientObject {
  protected _items: T[] | undefined;
  get items(): T[] {
    if (!this._items) throw propertyNotLoaded('items', this._kind);
    return this._items;
  }
}

/** `OfficeExtension.ClientResult`: the value of a method call, known after sync. */
export class HostClientResult<T> {
  private _value: T | undefined;
  private _set = false;
  _resolve(value: T): void {
    this._value = value;
    this._set = true;
  }
  get value(): T {
    if (!this._set) throw propertyNotLoaded('value', 'ClientResult');
    return this._value as T;
  }
}

// ---- Workbook, application ---------------------------------------------------------------------

export class WorkbookProxy extends ClientObject {
  protected readonly _kind = 'Workbook';
  readonly worksheets: WorksheetCollectionProxy;
  readonly onSelectionChanged: EventProxy;

  constructor(context: HostRequestContext) {
    super(context);
    this.worksheets = new WorksheetCollectionProxy(context);
    this.onSelectionChanged = new EventProxy(context, { kind: 'workbook' }, '1.2', 'Workbook.onSelectionChanged');
  }

  declare readonly name: string;
  declare readonly comments: CommentCollectionProxy;
  get application(): ApplicationProxy {
    return this.context.application;
  }

  getSelectedRange(): RangeProxy {
    const host = this.context.host;
    return new RangeProxy(this.context, () => {
      const sheet = host.activeSheet();
      return { sheet, rect: parseRect(sheet.selection)! };
    });
  }

  getActiveCell(): RangeProxy {
    const host = this.context.host;
    const range = new RangeProxy(this.context, () => {
      const sheet = host.activeSheet();
      const rect = parseRect(sheet.selection)!;
      return { sheet, rect: { top: rect.top, left: rect.left, rowCount: 1, columnCount: 1 } };
    });
    this.context._enqueueGated('1.7', 'Workbook.getActiveCell', { call: 'getActiveCell' }, () => undefined);
    return range;
  }
}
scalars(WorkbookProxy, (w) => w.context.host, { name: (host) => host.fileName });
children(WorkbookProxy, { comments: (w) => new CommentCollectionProxy(w.context) }, []);

export class ApplicationProxy extends ClientObject {
  protected readonly _kind = 'Application';
  declare readonly calculationMode: string;
  suspendApiCalculationUntilNextSync(): void {
    this.context._enqueueGated('1.6', 'Application.suspendApiCalculationUntilNextSync', { call: 'suspendApiCalculationUntilNextSync' }, () => {
      this.context.host.stats.calculationSuspensions += 1;
    });
  }
}
scalars(ApplicationProxy, () => null, { calculationMode: () => 'Automatic' });

// ---- Worksheets ----------------------------------------------------------------------------------

export class WorksheetCollectionProxy extends CollectionProxy<WorksheetProxy> {
  protected readonly _kind = 'WorksheetCollection';

  override load(spec?: LoadSpec): this {
    const names = parseLoadSpec(spec);
    const itemProps =
      names.length === 0
        ? undefined
        : names
            .filter((n) => n.startsWith('items'))
            .map((n) => n.replace(/^items\/?/, ''))
            .filter(Boolean);
    this.context._enqueue({ load: 'WorksheetCollection', select: names }, () => {
      this._items = this.context.host.sheets.map((s) => {
        const proxy = new WorksheetProxy(this.context, () => this.context.host.sheetById(s.id));
        proxy._loadNow(itemProps && itemProps.length ? itemProps : undefined);
        return proxy;
      });
    });
    return this;
  }

  getItem(key: string): WorksheetProxy {
    return new WorksheetProxy(this.context, () => {
      const sheet = this.context.host.findSheet(key);
      if (!sheet) throw new HostOfficeError('ItemNotFound', `The requested resource doesn't exist: no worksheet "${key}".`, `Worksheets.getItem(${key})`);
      return sheet;
    });
  }

  getItemOrNullObject(key: string): WorksheetProxy {
    return new WorksheetProxy(this.context, () => this.context.host.findSheet(key) ?? null, true);
  }

  getActiveWorksheet(): WorksheetProxy {
    return new WorksheetProxy(this.context, () => this.context.host.activeSheet());
  }

  getCount(): HostClientResult<number> {
    return countResult(this.context, null, 'getCount', () => this.context.host.sheets.length);
  }
}

/** Its locator resolves the sheet during sync; null only for *OrNullObject (ItemNotFound otherwise). */
export class WorksheetProxy extends LocatedProxy<HostSheet> {
  protected readonly _kind = 'Worksheet';
  protected readonly _notFound = 'The requested worksheet does not exist.';
  _sheet(): HostSheet {
    return this._located();
  }

  declare readonly name: string;
  declare readonly id: string;
  declare readonly position: number;
  declare readonly visibility: string;
  declare readonly protection: WorksheetProtectionProxy;
  declare readonly notes: NoteCollectionProxy;
  declare readonly onSelectionChanged: EventProxy;

  getRange(address?: string): RangeProxy {
    return new RangeProxy(this.context, () => {
      const sheet = this._sheet();
      if (address === undefined || address === '') return { sheet, rect: { top: 1, left: 1, rowCount: 1048576, columnCount: 16384 } };
      const rect = parseRect(address);
      if (!rect) throw new HostOfficeError('InvalidArgument', `The argument is invalid or missing or has an incorrect format: address "${address}".`);
      return { sheet, rect };
    });
  }

  getCell(row: number, column: number): RangeProxy {
    return new RangeProxy(this.context, () => ({ sheet: this._sheet(), rect: { top: row + 1, left: column + 1, rowCount: 1, columnCount: 1 } }));
  }

  getUsedRange(valuesOnly?: boolean): RangeProxy {
    return new RangeProxy(this.context, () => {
      const sheet = this._sheet();
      return { sheet, rect: usedRect(sheet, valuesOnly) ?? { top: 1, left: 1, rowCount: 1, columnCount: 1 } };
    });
  }

  getUsedRangeOrNullObject(valuesOnly?: boolean): RangeProxy {
    this.context._enqueueGated('1.4', 'Worksheet.getUsedRangeOrNullObject', { call: 'getUsedRangeOrNullObject' }, () => undefined);
    return new RangeProxy(
      this.context,
      () => {
        const sheet = this._sheet();
        const rect = usedRect(sheet, valuesOnly);
        return rect ? { sheet, rect } : null;
      },
      true,
    );
  }

  activate(): void {
    this.context._enqueue({ call: 'activate' }, () => {
      this.context.host.activateSheet(this._sheet());
    });
  }
}
scalars(WorksheetProxy, (w) => w._sheet(), {
  name: (sheet) => sheet.name,
  id: (sheet) => sheet.id,
  position: (sheet, w) => w.context.host.sheets.indexOf(sheet),
  visibility: (sheet) => sheet.visibility,
});
children(
  WorksheetProxy,
  {
    protection: (w) => new WorksheetProtectionProxy(w.context, w),
    notes: (w) => new NoteCollectionProxy(w.context, w),
    onSelectionChanged: (w) => new EventProxy(w.context, { kind: 'worksheet', sheet: w }, '1.7', 'Worksheet.onSelectionChanged'),
  },
  ['protection'],
);

export class WorksheetProtectionProxy extends ClientObject {
  protected readonly _kind = 'WorksheetProtection';
  constructor(
    context: HostRequestContext,
    readonly _worksheet: WorksheetProxy,
  ) {
    super(context);
  }
  declare readonly protected: boolean;
  declare readonly options: { allowFormatCells: boolean; allowEditObjects: boolean };
  protect(options?: { allowFormatCells?: boolean; allowEditObjects?: boolean }): void {
    this.context._enqueueGated('1.2', 'WorksheetProtection.protect', { call: 'protect', options }, () => {
      const s = this._worksheet._sheet();
      if (s.protection.protected) throw new HostOfficeError('InvalidOperation', 'The worksheet is already protected.');
      s.protection = { protected: true, allowFormatCells: !!options?.allowFormatCells, allowEditObjects: !!options?.allowEditObjects };
    });
  }
  unprotect(): void {
    this.context._enqueueGated('1.2', 'WorksheetProtection.unprotect', { call: 'unprotect' }, () => {
      this._worksheet._sheet().protection.protected = false;
    });
  }
}
scalars(WorksheetProtectionProxy, (p) => p._worksheet._sheet().protection, {
  protected: (p) => p.protected,
  options: (p) => ({ allowFormatCells: p.allowFormatCells, allowEditObjects: p.allowEditObjects }),
});

// ---- Ranges --------------------------------------------------------------------------------------

type RangeTarget = () => { sheet: HostSheet; rect: Rect } | null;

function grid<T>(rect: Rect, f: (row: number, column: number) => T): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rect.rowCount; i++) {
    const row: T[] = [];
    for (let j = 0; j < rect.columnCount; j++) row.push(f(rect.top + i, rect.left + j));
    out.push(row);
  }
  return out;
}

/** A 2D input of exactly the range's size, or a single value applied to every cell. */
function inputGrid(rect: Rect, input: unknown, property: string): unknown[][] {
  if (!Array.isArray(input)) return grid(rect, () => input);
  const ok = input.length === rect.rowCount && input.every((row) => Array.isArray(row) && row.length === rect.columnCount);
  if (!ok) {
    const rows = input.length;
    const cols = Array.isArray(input[0]) ? (input[0] as unknown[]).length : 0;
    throw new HostOfficeError(
      'InvalidArgument',
      `The number of rows or columns in the input array doesn't match the size or dimensions of the range: ${property} is ${rows}x${cols}, the range ${rectAddress(rect)} is ${rect.rowCount}x${rect.columnCount}.`,
    );
  }
  return input as unknown[][];
}

function sameOrNull<T>(values: T[]): T | null {
  if (values.length === 0) return null;
  const first = values[0]!;
  return values.every((v) => v === first) ? first : null;
}

export class RangeProxy extends LocatedProxy<{ sheet: HostSheet; rect: Rect }> {
  protected readonly _kind = 'Range';
  protected readonly _notFound = 'The requested range does not exist.';

  _resolveTarget(): { sheet: HostSheet; rect: Rect } {
    return this._located();
  }

  declare readonly address: string;
  declare readonly addressLocal: string;
  declare readonly rowCount: number;
  declare readonly columnCount: number;
  declare readonly cellCount: number;
  declare readonly rowIndex: number;
  declare readonly columnIndex: number;
  set values(input: unknown) {
    this._write('values', input);
  }
  set formulas(input: unknown) {
    this._write('formulas', input);
  }
  set numberFormat(input: unknown) {
    this.context._enqueue({ set: 'numberFormat', value: input }, () => {
      const { sheet, rect } = this._resolveTarget();
      const values = inputGrid(rect, input, 'numberFormat');
      this.context.host.requireFormatting(sheet, rect);
      cellsOf(rect).forEach(({ row, column }, i) => {
        const v = values[Math.floor(i / rect.columnCount)]![i % rect.columnCount];
        if (v === null || v === undefined) return;
        putCell(sheet, row, column, { ...getCell(sheet, row, column), numberFormat: String(v) });
      });
    });
  }
  declare readonly valueTypes: string[][];
  declare readonly text: string[][];

  declare readonly format: RangeFormatProxy;
  declare readonly dataValidation: DataValidationProxy;

  get worksheet(): WorksheetProxy {
    return new WorksheetProxy(this.context, () => this._resolveTarget().sheet);
  }

  private _write(property: 'values' | 'formulas', input: unknown): void {
    this.context._enqueue({ set: property, value: input }, () => {
      const { sheet, rect } = this._resolveTarget();
      const values = inputGrid(rect, input, property);
      const writes: (Cell & { value: unknown })[] = [];
      for (let i = 0; i < rect.rowCount; i++) {
        for (let j = 0; j < rect.columnCount; j++) {
          const value = values[i]![j];
          if (value === null || value === undefined) continue;
          const row = rect.top + i;
          const column = rect.left + j;
          const merge = mergeAt(sheet, row, column);
          if (merge && (merge.top !== row || merge.left !== column) && value !== '') {
            throw new HostOfficeError('InvalidOperation', `Cannot change part of a merged cell: ${toA1(row, column)} is inside ${rectAddress(merge)}.`);
          }
          writes.push({ row, column, value });
        }
      }
      // Excel checks the whole range, null entries included: a null over a locked cell of a protected
      // sheet is still AccessDenied (microsoft-graph-docs #4546, the same Excel service behind Graph).
      this.context.host.requireEditable(sheet, cellsOf(rect));
      for (const w of writes) putCell(sheet, w.row, w.column, enterValue(getCell(sheet, w.row, w.column), w.value));
    });
  }

  getCell(row: number, column: number): RangeProxy {
    return new RangeProxy(this.context, () => {
      const { sheet, rect } = this._resolveTarget();
      return { sheet, rect: { top: rect.top + row, left: rect.left + column, rowCount: 1, columnCount: 1 } };
    });
  }

  select(): void {
    this.context._enqueue({ call: 'select' }, () => {
      const { sheet, rect } = this._resolveTarget();
      this.context.host.selectAddress(sheet, rectAddress(rect));
    });
  }

  clear(applyTo?: string): void {
    this.context._enqueue({ call: 'clear', applyTo }, () => {
      const { sheet, rect } = this._resolveTarget();
      const cells = cellsOf(rect);
      this.context.host.requireEditable(sheet, cells);
      for (const { row, column } of cells) {
        const prev = getCell(sheet, row, column);
        const contents = applyTo === undefined || applyTo === 'All' || applyTo === 'Contents';
        const formats = applyTo === undefined || applyTo === 'All' || applyTo === 'Formats';
        putCell(sheet, row, column, {
          ...prev,
          ...(contents ? { value: null, formula: null, quotePrefix: false, isError: false } : {}),
          ...(formats ? { numberFormat: 'General', fill: null } : {}),
        });
      }
    });
  }

  /** ExcelApi 1.9: per-cell format properties in one call (fill colour and pattern, locked). */
  getCellProperties(options: {
    address?: boolean;
    format?: { fill?: { color?: boolean; pattern?: boolean }; protection?: boolean | { locked?: boolean } };
  }): HostClientResult<unknown[][]> {
    const result = new HostClientResult<unknown[][]>();
    this.context._enqueueGated('1.9', 'Range.getCellProperties', { call: 'getCellProperties', options }, () => {
      const { sheet, rect } = this._resolveTarget();
      const properties = grid(rect, (r, c) => {
        const cell = getCell(sheet, r, c);
        const out: Record<string, unknown> = {};
        if (options.address) out.address = `${quoteSheetName(sheet.name)}!${toA1(r, c)}`;
        if (options.format) {
          const format: Record<string, unknown> = {};
          if (options.format.fill) {
            const fill: Record<string, unknown> = {};
            if (options.format.fill.color) fill.color = cell.fill ?? '#FFFFFF';
            if (options.format.fill.pattern) fill.pattern = cell.fill ? 'Solid' : 'None';
            format.fill = fill;
          }
          if (options.format.protection) format.protection = { locked: cell.locked };
          out.format = format;
        }
        return out;
      });
      this.context._respond(properties, () => result._resolve(properties));
    });
    return result;
  }

  /**
   * ExcelApi 1.13: the merged areas of this range, or a null object. Like Excel (office-js #3611),
   * only areas whose top-left cell lies in the range: a merge that starts above or to the left of
   * the range is not reported even when it covers cells of the range.
   */
  getMergedAreasOrNullObject(): RangeAreasProxy {
    const areas = new RangeAreasProxy(this.context, () => {
      const { sheet, rect } = this._resolveTarget();
      const topLeft = (m: Rect) => ({ top: m.top, left: m.left, rowCount: 1, columnCount: 1 });
      const merges = sheet.merges.filter((m) => intersects(topLeft(m), rect));
      return merges.length ? { sheet, rects: merges } : null;
    });
    this.context._enqueueGated('1.13', 'Range.getMergedAreasOrNullObject', { call: 'getMergedAreasOrNullObject' }, () => undefined);
    return areas;
  }
}
const address = ({ sheet, rect }: { sheet: HostSheet; rect: Rect }) => `${quoteSheetName(sheet.name)}!${rectAddress(rect)}`;
scalars(RangeProxy, (r) => r._resolveTarget(), {
  address,
  addressLocal: address,
  rowCount: ({ rect }) => rect.rowCount,
  columnCount: ({ rect }) => rect.columnCount,
  cellCount: ({ rect }) => rect.rowCount * rect.columnCount,
  rowIndex: ({ rect }) => rect.top - 1,
  columnIndex: ({ rect }) => rect.left - 1,
  values: ({ sheet, rect }) => grid(rect, (r, c) => readValue(getCell(sheet, r, c))),
  formulas: ({ sheet, rect }) => grid(rect, (r, c) => readFormula(getCell(sheet, r, c))),
  numberFormat: ({ sheet, rect }) => grid(rect, (r, c) => getCell(sheet, r, c).numberFormat),
  valueTypes: ({ sheet, rect }) => grid(rect, (r, c) => readValueType(getCell(sheet, r, c))),
  text: ({ sheet, rect }) => grid(rect, (r, c) => readText(getCell(sheet, r, c))),
});
children(RangeProxy, {
  format: (r) => new RangeFormatProxy(r.context, r),
  dataValidation: (r) => new DataValidationProxy(r.context, r),
});

export class RangeAreasProxy extends ClientObject {
  protected readonly _kind = 'RangeAreas';
  constructor(
    context: HostRequestContext,
    readonly _resolveAreas: () => { sheet: HostSheet; rects: Rect[] } | null,
  ) {
    super(context, true);
  }
  protected override _exists(): boolean {
    return this._resolveAreas() !== null;
  }
  declare readonly address: string;
  declare readonly areaCount: number;
  declare readonly areas: RangeCollectionProxy;
}
scalars(RangeAreasProxy, (a) => a._resolveAreas()!, {
  // Excel separates the areas with ", " (RangeAreas.address, learn.microsoft.com).
  address: (t) => t.rects.map((r) => `${quoteSheetName(t.sheet.name)}!${rectAddress(r)}`).join(', '),
  areaCount: (t) => t.rects.length,
});
children(RangeAreasProxy, {
  areas: (a) =>
    new RangeCollectionProxy(a.context, () => {
      const t = a._resolveAreas();
      return t ? t.rects.map((rect) => ({ sheet: t.sheet, rect })) : [];
    }),
});

export class RangeCollectionProxy extends CollectionProxy<RangeProxy> {
  protected readonly _kind = 'RangeCollection';
  constructor(
    context: HostRequestContext,
    private readonly _resolveAll: () => { sheet: HostSheet; rect: Rect }[],
  ) {
    super(context);
  }
  override load(spec?: LoadSpec): this {
    const names = parseLoadSpec(spec)
      .map((n) => n.replace(/^items\/?/, ''))
      .filter(Boolean);
    this.context._enqueue({ load: 'RangeCollection', select: names }, () => {
      this._items = this._resolveAll().map((t) => {
        const r = new RangeProxy(this.context, () => t);
        r._loadNow(names.length ? names : ['address']);
        return r;
      });
    });
    return this;
  }
}

export class RangeFormatProxy extends ClientObject {
  protected readonly _kind = 'RangeFormat';
  constructor(
    context: HostRequestContext,
    readonly _range: RangeProxy,
  ) {
    super(context);
  }
  declare readonly fill: RangeFillProxy;
  declare readonly protection: FormatProtectionProxy;
}
children(RangeFormatProxy, {
  fill: (f) => new RangeFillProxy(f.context, f._range),
  protection: (f) => new FormatProtectionProxy(f.context, f._range),
});

/** A part of a range (its fill, its protection, its validation) that reads and writes the range's cells. */
abstract class RangePartProxy extends ClientObject {
  constructor(
    context: HostRequestContext,
    protected readonly range: RangeProxy,
  ) {
    super(context);
  }
  /** One property over the range's cells: the common value, or null when the cells differ (as Excel reports). */
  _common<T>(property: (cell: HostCell) => T): T | null {
    const { sheet, rect } = this.range._resolveTarget();
    return sameOrNull(cellsOf(rect).map(({ row, column }) => property(getCell(sheet, row, column))));
  }
}

export class RangeFillProxy extends RangePartProxy {
  protected readonly _kind = 'RangeFill';
  set color(color: string) {
    this.context._enqueue({ set: 'fill.color', value: color }, () => {
      if (typeof color !== 'string' || !/^#[0-9A-Fa-f]{6}$/.test(color)) {
        throw new HostOfficeError('InvalidArgument', `The fill colour "${String(color)}" is not a #RRGGBB colour (the host accepts only that form).`);
      }
      this._paint(color.toUpperCase());
    });
  }
  clear(): void {
    this.context._enqueue({ call: 'fill.clear' }, () => this._paint(null));
  }
  private _paint(fill: string | null): void {
    const { sheet, rect } = this.range._resolveTarget();
    this.context.host.requireFormatting(sheet, rect);
    for (const { row, column } of cellsOf(rect)) putCell(sheet, row, column, { ...getCell(sheet, row, column), fill });
  }
}
// Excel reports no fill as white.
scalars(RangeFillProxy, (f) => f, { color: (f) => f._common((cell) => cell.fill ?? '#FFFFFF') });

export class FormatProtectionProxy extends RangePartProxy {
  protected readonly _kind = 'FormatProtection';
  set locked(locked: boolean) {
    this.context._enqueueGated('1.2', 'FormatProtection.locked', { set: 'protection.locked', value: locked }, () => {
      const { sheet, rect } = this.range._resolveTarget();
      if (sheet.protection.protected) throw new HostOfficeError('AccessDenied', 'The cell or chart you are trying to change is on a protected sheet.');
      for (const { row, column } of cellsOf(rect)) putCell(sheet, row, column, { ...getCell(sheet, row, column), locked: !!locked });
    });
  }
}
scalars(FormatProtectionProxy, (p) => p, { locked: (p) => p._common((cell) => cell.locked) });

export class DataValidationProxy extends RangePartProxy {
  protected readonly _kind = 'DataValidation';
  override load(spec?: LoadSpec): this {
    this.context._enqueueGated('1.8', 'Range.dataValidation', { load: 'DataValidation' }, () => undefined);
    return super.load(spec);
  }
  /** The one rule covering every cell of the range; `same` false when the cells' rules differ. */
  _rule(): { same: boolean; rule: HostValidation | null } {
    const { sheet, rect } = this.range._resolveTarget();
    const covering = (row: number, column: number) =>
      sheet.validations.find((v) =>
        v.range.split(/\s+/).some((a) => {
          const r = parseRect(a);
          return r !== null && intersects(r, { top: row, left: column, rowCount: 1, columnCount: 1 });
        }),
      ) ?? null;
    const rules = cellsOf(rect).map(({ row, column }) => covering(row, column));
    const first = rules[0] ?? null;
    return { same: rules.every((r) => r === first), rule: first };
  }
  declare readonly type: string;
  declare readonly rule: { list?: { inCellDropDown: boolean; source: string } };
}
scalars(DataValidationProxy, (v) => v._rule(), {
  type: ({ same, rule }) => (!same ? 'Inconsistent' : rule ? (rule.type === 'list' ? 'List' : 'Custom') : 'None'),
  rule: ({ same, rule }) =>
    !same || !rule ? {} : rule.type === 'list' ? { list: { inCellDropDown: true, source: rule.source } } : { custom: { formula: rule.source } },
});

// ---- Notes (ExcelApi 1.18) and comments (1.10) -----------------------------------------------------

function cellTarget(
  context: HostRequestContext,
  cellAddress: RangeProxy | string,
  sheet: WorksheetProxy | null,
  api: string,
): () => { sheet: HostSheet; address: string } {
  return () => {
    if (cellAddress instanceof RangeProxy) {
      const { sheet: s, rect } = cellAddress._resolveTarget();
      if (rect.rowCount !== 1 || rect.columnCount !== 1) throw new HostOfficeError('InvalidArgument', `${api} needs a single cell.`);
      return { sheet: s, address: toA1(rect.top, rect.left) };
    }
    const bang = cellAddress.lastIndexOf('!');
    let host: HostSheet | null;
    let local = cellAddress;
    if (bang >= 0) {
      const name = cellAddress
        .slice(0, bang)
        .replace(/^'(.*)'$/, '$1')
        .replace(/''/g, "'");
      host = context.host.findSheet(name);
      local = cellAddress.slice(bang + 1);
      if (!host) throw new HostOfficeError('ItemNotFound', `${api}: no worksheet "${name}".`);
    } else if (sheet) {
      host = sheet._sheet();
    } else {
      throw new HostOfficeError('InvalidArgument', `${api} needs a sheet-qualified address like Sheet1!A1, got "${cellAddress}".`);
    }
    let cell: Cell;
    try {
      cell = cellAt(local.replace(/\$/g, ''));
    } catch {
      throw new HostOfficeError('InvalidArgument', `${api}: "${cellAddress}" is not a single cell (InvalidCellAddress).`);
    }
    return { sheet: host, address: toA1(cell.row, cell.column) };
  };
}

export class NoteCollectionProxy extends CollectionProxy<NoteProxy> {
  protected readonly _kind = 'NoteCollection';
  constructor(
    context: HostRequestContext,
    private readonly sheet: WorksheetProxy,
  ) {
    super(context);
  }
  override load(spec?: LoadSpec): this {
    const names = parseLoadSpec(spec)
      .map((n) => n.replace(/^items\/?/, ''))
      .filter(Boolean);
    this.context._enqueueGated('1.18', 'NoteCollection.load', { load: 'NoteCollection', select: names }, () => {
      const s = this.sheet._sheet();
      this._items = [...s.notes.keys()].map((address) => {
        const note = new NoteProxy(this.context, () => ({ sheet: s, address }));
        note._loadNow();
        return note;
      });
    });
    return this;
  }
  add(cellAddress: RangeProxy | string, content: string): NoteProxy {
    const target = cellTarget(this.context, cellAddress, this.sheet, 'NoteCollection.add');
    this.context._enqueueGated('1.18', 'NoteCollection.add', { call: 'notes.add', content }, () => {
      const { sheet, address } = target();
      this.context.host.requireObjectEditing(sheet, address);
      if (sheet.notes.has(address)) throw new HostOfficeError('InvalidOperation', `The cell ${address} already has a note.`);
      sheet.notes.set(address, { content: String(content), author: this.context.host.userName });
    });
    return new NoteProxy(this.context, target);
  }
  getItem(key: string): NoteProxy {
    const target = cellTarget(this.context, key, this.sheet, 'NoteCollection.getItem');
    return new NoteProxy(this.context, () => {
      const t = target();
      if (!t.sheet.notes.has(t.address)) throw new HostOfficeError('ItemNotFound', `There is no note on ${t.address}.`);
      return t;
    });
  }
  getItemOrNullObject(key: string): NoteProxy {
    const target = cellTarget(this.context, key, this.sheet, 'NoteCollection.getItemOrNullObject');
    this.context._enqueueGated('1.18', 'NoteCollection.getItemOrNullObject', { call: 'notes.getItemOrNullObject' }, () => undefined);
    return new NoteProxy(
      this.context,
      () => {
        const t = target();
        return t.sheet.notes.has(t.address) ? t : null;
      },
      true,
    );
  }
  getCount(): HostClientResult<number> {
    return countResult(this.context, ['1.18', 'NoteCollection.getCount'], 'notes.getCount', () => this.sheet._sheet().notes.size);
  }
}

/**
 * A note or a comment: at most one per cell, deleted and located alike; they differ in where the host
 * keeps them, the API set that has them and the words of their errors.
 */
abstract class CellAnnotationProxy<A extends { content: string; author: string }> extends LocatedProxy<{ sheet: HostSheet; address: string }> {
  /** ExcelApi version and API name, e.g. ['1.18', 'Note']. */
  protected abstract readonly _api: readonly [string, string];
  protected abstract _store(sheet: HostSheet): Map<string, A>;

  _resolveAnnotation(): { sheet: HostSheet; address: string; annotation: A } {
    const t = this._located();
    const annotation = this._store(t.sheet).get(t.address);
    if (!annotation) throw new HostOfficeError('ItemNotFound', this._notFoundOn(t.address));
    return { ...t, annotation };
  }
  /** What ItemNotFound says when the cell is there but its note or comment is not. */
  protected _notFoundOn(_address: string): string {
    return this._notFound;
  }
  delete(): void {
    const [version, api] = this._api;
    this.context._enqueueGated(version, `${api}.delete`, { call: `${api.toLowerCase()}.delete` }, () => {
      const t = this._resolveAnnotation();
      this.context.host.requireObjectEditing(t.sheet, t.address);
      this._store(t.sheet).delete(t.address);
    });
  }
  getLocation(): RangeProxy {
    return new RangeProxy(this.context, () => {
      const t = this._resolveAnnotation();
      const c = cellAt(t.address);
      return { sheet: t.sheet, rect: { top: c.row, left: c.column, rowCount: 1, columnCount: 1 } };
    });
  }
}

export class NoteProxy extends CellAnnotationProxy<HostSheet['notes'] extends Map<string, infer N> ? N : never> {
  protected readonly _kind = 'Note';
  protected readonly _api = ['1.18', 'Note'] as const;
  protected _store(sheet: HostSheet) {
    return sheet.notes;
  }
  protected readonly _notFound = 'The note does not exist.';
  set content(content: string) {
    this.context._enqueueGated('1.18', 'Note.content', { set: 'note.content', value: content }, () => {
      const t = this._resolveAnnotation();
      this.context.host.requireObjectEditing(t.sheet, t.address);
      t.annotation.content = String(content);
    });
  }
  declare readonly authorName: string;
}
scalars(NoteProxy, (n) => n._resolveAnnotation().annotation, { content: (note) => note.content, authorName: (note) => note.author });

export class CommentCollectionProxy extends CollectionProxy<CommentProxy> {
  protected readonly _kind = 'CommentCollection';
  override load(spec?: LoadSpec): this {
    this.context._enqueueGated('1.10', 'CommentCollection.load', { load: 'CommentCollection', select: parseLoadSpec(spec) }, () => {
      this._items = this.context.host.sheets.flatMap((s) =>
        [...s.comments.keys()].map((address) => {
          const c = new CommentProxy(this.context, () => ({ sheet: s, address }));
          c._loadNow();
          return c;
        }),
      );
    });
    return this;
  }
  add(cellAddress: RangeProxy | string, content: string): CommentProxy {
    const target = cellTarget(this.context, cellAddress, null, 'CommentCollection.add');
    this.context._enqueueGated('1.10', 'CommentCollection.add', { call: 'comments.add', content }, () => {
      const { sheet, address } = target();
      this.context.host.requireObjectEditing(sheet, address);
      if (sheet.comments.has(address)) throw new HostOfficeError('InvalidOperation', `The cell ${address} already has a comment thread.`);
      sheet.comments.set(address, { id: this.context.host.newId('comment'), content: String(content), author: this.context.host.userName });
    });
    return new CommentProxy(this.context, target);
  }
  getItemByCell(cellAddress: RangeProxy | string): CommentProxy {
    const target = cellTarget(this.context, cellAddress, null, 'CommentCollection.getItemByCell');
    return new CommentProxy(this.context, target);
  }
  getCount(): HostClientResult<number> {
    return countResult(this.context, ['1.10', 'CommentCollection.getCount'], 'comments.getCount', () =>
      this.context.host.sheets.reduce((n, s) => n + s.comments.size, 0),
    );
  }
}

export class CommentProxy extends CellAnnotationProxy<HostSheet['comments'] extends Map<string, infer C> ? C : never> {
  protected readonly _kind = 'Comment';
  protected readonly _api = ['1.10', 'Comment'] as const;
  protected _store(sheet: HostSheet) {
    return sheet.comments;
  }
  protected readonly _notFound = 'The comment does not exist.';
  protected override _notFoundOn(address: string): string {
    return `There is no comment on ${address}.`;
  }
  declare readonly id: string;
  declare readonly content: string;
  declare readonly authorName: string;
}
scalars(CommentProxy, (c) => c._resolveAnnotation().annotation, {
  id: (comment) => comment.id,
  content: (comment) => comment.content,
  authorName: (comment) => comment.author,
});

// ---- Events ----------------------------------------------------------------------------------------

export type SelectionHandler = (args: Record<string, unknown>) => unknown;

export class EventProxy {
  constructor(
    private readonly context: HostRequestContext,
    private readonly source: { kind: 'workbook' } | { kind: 'worksheet'; sheet: WorksheetProxy },
    private readonly version: string,
    private readonly api: string,
  ) {}

  add(handler: SelectionHandler): { context: HostRequestContext; remove: () => void } {
    const host = this.context.host;
    let registration: { sheetId: string | null; handler: SelectionHandler } | null = null;
    this.context._enqueueGated(this.version, `${this.api}.add`, { call: 'event.add' }, () => {
      const sheetId = this.source.kind === 'worksheet' ? this.source.sheet._sheet().id : null;
      registration = { sheetId, handler };
      host.selectionHandlers.add(registration);
    });
    const context = this.context;
    return {
      context,
      remove: () => {
        context._enqueue({ call: 'event.remove' }, () => {
          if (registration) host.selectionHandlers.delete(registration);
        });
      },
    };
  }
}

export type { HostCell };
