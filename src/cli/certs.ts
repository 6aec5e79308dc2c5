/**
 * HTTPS for `qfill serve`: the office-addin-dev-certs certificates (Office loads task panes only over
 * HTTPS). Generated into ~/.office-addin-dev-certs when missing or expired. Installing the CA needs
 * administrator rights, so we never do it here; we say how.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface DevCertificates {
  key: Buffer;
  cert: Buffer;
  caPath: string;
  generated: boolean;
}

const DIR = join(homedir(), '.office-addin-dev-certs');
const CA = join(DIR, 'ca.crt');
const CERT = join(DIR, 'localhost.crt');
const KEY = join(DIR, 'localhost.key');

function stillValid(certPath: string): boolean {
  try {
    const cert = new X509Certificate(readFileSync(certPath));
    return new Date(cert.validTo).getTime() > Date.now() + 60 * 60 * 1000;
  } catch {
    return false;
  }
}

export async function ensureDevCertificates(): Promise<DevCertificates> {
  let generated = false;
  if (!existsSync(CA) || !existsSync(CERT) || !existsSync(KEY) || !stillValid(CERT)) {
    // A CommonJS package: its functions arrive as named exports or under `default`, depending on the loader.
    const mod = (await import('office-addin-dev-certs')) as typeof import('office-addin-dev-certs') & {
      default?: typeof import('office-addin-dev-certs');
    };
    const generate = mod.generateCertificates ?? mod.default?.generateCertificates;
    if (typeof generate !== 'function') throw new Error('office-addin-dev-certs has no generateCertificates');
    await generate(CA, CERT, KEY);
    generated = true;
  }
  return { key: readFileSync(KEY), cert: readFileSync(CERT), caPath: CA, generated };
}

export function trustInstructions(caPath: string): string {
  return [
    `HTTPS uses the development CA ${caPath}.`,
    'If your browser or Office does not trust it yet, install it once (needs administrator rights):',
    '  npx office-addin-dev-certs install',
    `or add ${caPath} to your system's trusted roots (Linux: copy to /usr/local/share/ca-certificates/ and run update-ca-certificates).`,
  ].join('\n');
}
