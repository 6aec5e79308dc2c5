/** `qfill config`: the effective configuration, secrets masked, each value with where it came from. */
import { effectiveConfig, problemMessage, unknownVariables, type Env } from '../service/config/read';
import type { Scope } from '../service/config/settings';

const HEADINGS: Record<Scope, string> = {
  service: 'qfill serve (and migrate and the admin commands for QFILL_DATABASE_URL)',
  fill: 'qfill fill',
  'npm start': 'npm start',
  tests: 'tests and benches',
};

export interface ConfigReport {
  /** False when a value is bad (the command exits with 2). */
  ok: boolean;
  lines: string[];
}

export function configReport(env: Env = process.env): ConfigReport {
  const settings = effectiveConfig(env);
  const nameWidth = Math.max(...settings.map((s) => s.name.length));
  const valueWidth = Math.min(60, Math.max(...settings.map((s) => (s.value ?? '(unset)').length)));
  const lines: string[] = [];
  for (const scope of Object.keys(HEADINGS) as Scope[]) {
    lines.push(`# ${HEADINGS[scope]}`);
    for (const s of settings.filter((x) => x.scope === scope)) {
      const row = `${s.name.padEnd(nameWidth)}  ${(s.value ?? '(unset)').padEnd(valueWidth)}  ${s.source}`;
      lines.push(s.problem ? `${row}  INVALID: expects ${s.problem.expects}` : row);
    }
    lines.push('');
  }
  const unknown = unknownVariables(env);
  for (const u of unknown) lines.push(`${u.name}: not a setting of qfill, ignored${u.nearest ? ` (did you mean ${u.nearest}?)` : ''}`);
  const problems = settings.flatMap((s) => (s.problem ? [s.problem] : []));
  for (const p of problems) lines.push(`Invalid: ${problemMessage(p)}`);
  if (unknown.length === 0 && problems.length === 0) lines.pop();
  return { ok: problems.length === 0, lines };
}
