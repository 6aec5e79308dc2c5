import { describe, expect, it } from 'vitest';
import { onDemand } from '../../src/fill/on-demand';

describe('onDemand', () => {
  it('fetches a module once, however often it is asked for', async () => {
    let fetches = 0;
    const load = onDemand(async () => ({ n: ++fetches }));
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(fetches).toBe(1);
  });

  it('forgets a failed fetch, so the next call tries again', async () => {
    let fetches = 0;
    const load = onDemand(async () => {
      if (++fetches === 1) throw new Error('offline');
      return 'module';
    });
    await expect(load()).rejects.toThrow('offline');
    expect(await load()).toBe('module');
    expect(fetches).toBe(2);
  });
});
