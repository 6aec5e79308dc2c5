// The `qfill` command table: every command is described in the usage, and a name that is no command
// (an Object property such as "toString" included) is a usage error, exit code 2.
import { describe, expect, it, vi } from 'vitest';
import { COMMANDS, main, USAGE } from '../../src/cli/main';

describe('qfill commands', () => {
  it('describes every command in the usage', () => {
    for (const name of Object.keys(COMMANDS)) expect(USAGE, name).toMatch(new RegExp(`^  (${name}\\b|doctor   \\(also: ${name} )`, 'm'));
  });

  it('refuses a name that is no command, and a missing subcommand, with exit code 2', async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((text) => (errors.push(String(text)), true));
    try {
      expect(await main(['toString'])).toBe(2);
      expect(await main(['keys', 'delete'])).toBe(2);
      expect(await main(['llm', 'ask'])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(errors).toEqual([
      'qfill: unknown command "toString"; run "qfill --help"\n',
      'qfill: unknown command "keys delete"; use "keys create"\n',
      'qfill: unknown command "llm ask"; use "llm test" or "doctor"\n',
    ]);
  });
});
