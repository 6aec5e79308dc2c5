/** Small controls the panes share: a labelled drop-down and a page switcher. */

export interface Choice<T extends string> {
  value: T;
  label: string;
}

/** A drop-down named for screen readers by `label` (the visible text is its current choice). */
export function Select<T extends string>(props: { label: string; value: T; choices: readonly Choice<T>[]; onChange: (value: T) => void }) {
  return (
    <select class="qf-select" aria-label={props.label} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value as T)}>
      {props.choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </select>
  );
}

/** Choices made of plain values, after a first "any" choice with the empty value. */
export function choicesOf<T extends string>(anyLabel: string, values: readonly T[], label: (value: T) => string = (v) => v): Choice<T | ''>[] {
  return [{ value: '', label: anyLabel }, ...values.map((v) => ({ value: v, label: label(v) }))];
}

/** Previous / "Page n of m" / Next, shown only when there is more than one page. */
export function Pager(props: { page: number; count: number; pageSize: number; hasNext: boolean; onPage: (page: number) => void }) {
  if (props.count <= props.pageSize) return null;
  const pages = Math.max(1, Math.ceil(props.count / props.pageSize));
  return (
    <div class="qf-pager">
      <button type="button" class="qf-btn" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous
      </button>
      <span class="qf-small">
        Page {props.page} of {pages}
      </span>
      <button type="button" class="qf-btn" disabled={!props.hasNext} onClick={() => props.onPage(props.page + 1)}>
        Next
      </button>
    </div>
  );
}

/** A search field named by `label`; `grow` lets it share a row. */
export function SearchBox(props: { label: string; placeholder: string; value: string; onChange: (text: string) => void; grow?: boolean }) {
  return (
    <input
      class={props.grow ? 'qf-input qf-grow' : 'qf-input'}
      type="search"
      aria-label={props.label}
      placeholder={props.placeholder}
      value={props.value}
      onInput={(e) => props.onChange(e.currentTarget.value)}
    />
  );
}
