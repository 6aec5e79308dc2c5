/** Makes `Excel`, `Office` and `OfficeExtension` globals point at an in-memory host. */
import type { ExcelHost } from './host';
import { createOfficeNamespace } from './office';

const NAMES = ['Excel', 'Office', 'OfficeExtension'] as const;

/** Installs the host's namespaces on `globalThis`; returns a function that restores what was there. */
export function installExcelHost(host: ExcelHost): () => void {
  const g = globalThis as Record<string, unknown>;
  const previous = NAMES.map((n) => [n, Object.getOwnPropertyDescriptor(g, n)] as const);
  const values: Record<(typeof NAMES)[number], unknown> = {
    Excel: host.createExcelNamespace(),
    Office: createOfficeNamespace(host),
    OfficeExtension: host.createOfficeExtensionNamespace(),
  };
  for (const n of NAMES) Object.defineProperty(g, n, { value: values[n], configurable: true, writable: true });
  return () => {
    for (const [n, d] of previous) {
      if (d) Object.defineProperty(g, n, d);
      else delete g[n];
    }
  };
}
