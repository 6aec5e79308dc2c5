// `npm start`: build the add-in with the workbench, start the local knowledge service over HTTPS on one
// origin (add-in files + /api/v2/), seed demo data on first run, sideload into Excel desktop where it can,
// and print where to go. A second run reuses the data folder. Ctrl-C stops everything.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDemo } from './demo/seed';
import { buildApp } from '../src/service/app';
import { ensureDevCertificates, trustInstructions } from '../src/cli/certs';
import { injectFetch } from './inject-fetch';
import { ConfigError, namesOf, problemMessage, readConfig } from '../src/service/config/read';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = startConfig();
const dataDir = path.resolve(config.QFILL_DATA ?? path.join(root, '.qfill-data'));
const port = Number(process.env.PORT ?? 3000);
const useHttp = process.argv.includes('--http');

/** The settings of npm start and of the service it runs, or exit code 2 naming each bad value. */
function startConfig() {
  try {
    return readConfig(process.env, [...namesOf('npm start'), ...namesOf('service')]);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) console.error(`npm start: ${problemMessage(problem)}`);
    process.exit(2);
  }
}

function build(): void {
  if (config.QFILL_SKIP_BUILD && existsSync(path.join(root, 'dist', 'workbench.html'))) return;
  console.log('Building the add-in (production bundle + workbench)…');
  execFileSync(process.execPath, [path.join(root, 'node_modules/webpack/bin/webpack.js'), '--mode', 'production', '--env', 'workbench'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function main(): Promise<void> {
  build();
  mkdirSync(dataDir, { recursive: true });
  let https: { key: Buffer; cert: Buffer } | null = null;
  let caPath: string | null = null;
  if (!useHttp) {
    const certs = await ensureDevCertificates();
    https = { key: certs.key, cert: certs.cert };
    caPath = certs.caPath;
  }
  const built = await buildApp({ dataDir, staticDir: path.join(root, 'dist'), logger: false, https });
  const address = await built.app.listen({ port, host: '127.0.0.1' });
  const url = address.replace('127.0.0.1', 'localhost');
  const demo = await seedDemo({ dataDir, baseUrl: url, fetchImpl: injectFetch(built.app) });
  console.log('');
  console.log(`Questionnaire Filler is running at ${url}`);
  console.log(`  Workbench (task pane beside an in-memory workbook): ${url}/workbench.html`);
  console.log(`  Your API key (organisation "${demo.ownOrg}", for your own documents; its library starts empty): ${demo.ownKey}`);
  console.log(`  Demo API key (organisation "${demo.org}", the fictional Northwind's sample documents, to try the demo questionnaire): ${demo.key}`);
  console.log('  The two never mix: the demo documents answer only with the demo key. Switch keys in Settings.');
  console.log(`  Demo questionnaire: ${demo.questionnairePath}`);
  if (caPath) console.log(trustInstructions(caPath).replace(/^/gm, '  '));
  console.log(sideload());
  console.log('Press Ctrl-C to stop.');

  const stop = async () => {
    await built.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * Sideloads into Excel desktop where there can be one (Windows, macOS) and office-addin-debugging is
 * installed (it is optional: it needs a native keyring module). Elsewhere, says where to go instead.
 */
function sideload(): string {
  const canSideload = (process.platform === 'win32' || process.platform === 'darwin') && !config.QFILL_NO_SIDELOAD;
  const tool = path.join(root, 'node_modules', 'office-addin-debugging', 'cli.js');
  if (!canSideload || !existsSync(tool)) {
    return '  No Excel desktop here: use the workbench, or sideload manifest.xml into Excel on the web (README).';
  }
  const child = spawn(process.execPath, [tool, 'start', path.join(root, 'manifest.xml'), 'desktop', '--no-debug', '--dev-server-port', String(port)], {
    cwd: root,
    stdio: 'inherit',
  });
  child.on('error', (e) => console.error(`Sideloading failed (${e.message}); open Excel and add manifest.xml by hand (README).`));
  return '  Sideloading into Excel desktop (office-addin-debugging)…';
}

main().catch((error) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
