/**
 * Checking a connection on its own: the real ApiClient over loopback HTTP to the FakeService for the
 * check, and the address rules the form applies before sending anything.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkBaseUrl, checkConnection, describeKeyOwner, pageIsHttps } from '../../../src/taskpane/settings/connection-check';
import { realClient } from '../client';
import { FakeService, repositoryFile } from '../fake-service';

let fake: FakeService;
beforeAll(async () => (fake = await FakeService.start()));
afterAll(() => fake.close());
beforeEach(() => {
  fake.files = [repositoryFile(1, 'a.pdf'), repositoryFile(2, 'b.pdf')];
  fake.extensions = null;
  fake.answering = undefined;
  fake.keyOwners.clear();
});
afterEach(() => fake.clearFailures());

const client = (apiKey = 'k') => realClient({ baseUrl: fake.origin, apiKey });
const owner = { organization: { id: 1, name: 'Acme' }, user: { id: 2, name: 'Alice Smith', role: 'repository_manager' }, read_only: false };

describe('checking a connection', () => {
  it('on a plain v2 service: the library size, and nothing of engine or owner', async () => {
    expect(await checkConnection(client(), 'https://qfill.example.com')).toEqual({
      text: 'Connected to https://qfill.example.com: the key was accepted; the library holds 2 files.',
      owner: undefined,
    });
  });

  it('names the engine and whose key it is where the service tells', async () => {
    fake.extensions = ['keys.current'];
    fake.answering = { model: 'gpt-test' };
    fake.keyOwners.set('k', owner);
    const ok = await checkConnection(client(), 'here');
    expect(ok.text).toBe('Connected to here: the key was accepted; the library holds 2 files. Answers by gpt-test.');
    expect(ok.owner).toEqual(owner);
    expect(describeKeyOwner(ok.owner!)).toBe("This key is Alice Smith's (repository manager) in Acme.");
    expect(describeKeyOwner({ ...owner, read_only: true })).toMatch(/, read-only: it can ask questions but not upload\.$/);
  });

  it('throws what the first call threw: a refused key is not a connection', async () => {
    fake.fail('GET', /repository\/files/, { status: 403, json: { error: 'invalid API key' } });
    await expect(checkConnection(client(), 'here')).rejects.toThrow(/invalid API key/);
  });
});

describe('the address', () => {
  it('must be a full http(s) address', () => {
    expect(checkBaseUrl(' https://qfill.example.com ')).toBeNull();
    expect(checkBaseUrl('')).toMatch(/^Enter the address of the service/);
    expect(checkBaseUrl('qfill.example.com')).toMatch(/must be a full address starting with https:\/\//);
    expect(checkBaseUrl('https://')).toMatch(/is not a valid address/);
  });

  it('tells an https page from others', () => {
    expect(pageIsHttps('https://localhost:3000')).toBe(true);
    expect(pageIsHttps('http://localhost:3000')).toBe(false);
    expect(pageIsHttps('')).toBe(false);
  });
});
