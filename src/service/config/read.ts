/**
 * Reading the declared settings from an environment through one zod schema. A bad value is an error naming
 * the variable and what it expects (`ConfigError`); blank counts as unset. Each reader asks only for the
 * settings it uses, so a bad value of one command's setting does not stop another command.
 */
import { z } from 'zod/mini';
import { SETTINGS, SETTING_NAMES, type Config, type Scope, type Setting, type SettingName } from './settings';

export type Env = Readonly<Record<string, string | undefined>>;

/** The one schema of the whole configuration: every declared variable, each optional. */
export const CONFIG_SCHEMA = z.object(Object.fromEntries(SETTING_NAMES.map((name) => [name, z.optional((SETTINGS[name] as Setting).kind.schema)])));

export interface ConfigProblem {
  name: SettingName;
  /** The value as given (masked when it is a secret). */
  value: string;
  expects: string;
}

export function problemMessage(p: ConfigProblem): string {
  return `${p.name} is "${p.value}", but it expects ${p.expects}`;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(problems.map(problemMessage).join('; '));
  }
}

const declared = (name: string): name is SettingName => Object.hasOwn(SETTINGS, name);

/** The declared variables that are set, trimmed; blank ones count as unset. */
function given(env: Env): Partial<Record<SettingName, string>> {
  const out: Partial<Record<SettingName, string>> = {};
  for (const name of SETTING_NAMES) {
    const value = env[name]?.trim();
    if (value) out[name] = value;
  }
  return out;
}

interface Parsed {
  given: Partial<Record<SettingName, string>>;
  /** Values that passed, by variable; a bad one is left out (and listed in `problems`). */
  values: Partial<Record<SettingName, unknown>>;
  problems: ConfigProblem[];
}

function parse(env: Env): Parsed {
  const raw = given(env);
  const first = CONFIG_SCHEMA.safeParse(raw);
  if (first.success) return { given: raw, values: first.data, problems: [] };
  const bad = new Set(first.error.issues.map((issue) => String(issue.path[0])).filter(declared));
  const problems = [...bad].map((name) => ({ name, value: masked(name, raw[name]!), expects: (SETTINGS[name] as Setting).kind.expects }));
  const rest = Object.fromEntries(Object.entries(raw).filter(([name]) => !bad.has(name as SettingName)));
  return { given: raw, values: CONFIG_SCHEMA.parse(rest), problems };
}

function effective(values: Parsed['values'], name: SettingName): unknown {
  const s = SETTINGS[name] as Setting;
  if (values[name] !== undefined) return values[name];
  if (s.fallback && declared(s.fallback) && values[s.fallback] !== undefined) return values[s.fallback];
  return s.default;
}

/** The settings of a scope (every declared one when none is given). */
export function namesOf(scope?: Scope): SettingName[] {
  return scope ? SETTING_NAMES.filter((name) => SETTINGS[name].scope === scope) : SETTING_NAMES;
}

/** Bad values among `names` (default: every declared setting). */
export function configProblems(env: Env = process.env, names: readonly SettingName[] = SETTING_NAMES): ConfigProblem[] {
  return parse(env).problems.filter((p) => names.includes(p.name));
}

/**
 * The configuration, defaults and fallbacks applied; throws `ConfigError` when one of `names` (the settings
 * the caller uses; default every one) has a bad value. A bad value of another setting reads as its default.
 */
export function readConfig(env: Env = process.env, names: readonly SettingName[] = SETTING_NAMES): Config {
  const parsed = parse(env);
  const problems = parsed.problems.filter((p) => names.includes(p.name));
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, effective(parsed.values, name)])) as unknown as Config;
}

/** A value for display: secrets masked (a URL keeps all but its password). */
export function masked(name: SettingName, value: string): string {
  const secret = (SETTINGS[name] as Setting).secret;
  if (secret === true) return '********';
  if (secret === 'password') {
    try {
      const url = new URL(value);
      if (url.password) url.password = '********';
      return url.toString();
    } catch {
      return '********';
    }
  }
  return value;
}

export interface EffectiveSetting {
  name: SettingName;
  scope: Scope;
  /** For display: masked when secret; null when unset with no default. */
  value: string | null;
  /** `environment`, `default` (also when unset with no default), or the variable it fell back to. */
  source: string;
  problem: ConfigProblem | null;
}

function shown(value: unknown): string {
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

/** Every declared setting with its effective value and where it came from, for `qfill config`. */
export function effectiveConfig(env: Env = process.env): EffectiveSetting[] {
  const parsed = parse(env);
  return SETTING_NAMES.map((name) => {
    const s = SETTINGS[name] as Setting;
    const problem = parsed.problems.find((p) => p.name === name) ?? null;
    const own = parsed.given[name];
    const fallback = s.fallback && declared(s.fallback) && parsed.values[s.fallback] !== undefined ? s.fallback : null;
    const [value, source] = problem
      ? [problem.value, 'environment']
      : own !== undefined
        ? [masked(name, own), 'environment']
        : fallback
          ? [masked(name, parsed.given[fallback]!), fallback]
          : s.default !== undefined
            ? [shown(s.default), 'default']
            : [null, 'default'];
    return { name, scope: s.scope, value, source, problem };
  });
}

/** `QFILL_*` variables in the environment that no setting declares (a misspelt name), with the nearest declared one. */
export function unknownVariables(env: Env = process.env): { name: string; nearest: SettingName | null }[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('QFILL_') && !declared(name))
    .sort()
    .map((name) => {
      let nearest: SettingName | null = null;
      let best = 4;
      for (const candidate of SETTING_NAMES) {
        const d = distance(name, candidate);
        if (d < best) [best, nearest] = [d, candidate];
      }
      return { name, nearest };
    });
}

/** Edit distance (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}
