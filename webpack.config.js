// Builds the add-in: the task pane (Preact) and the ribbon's function file for Office, and, with
// `--env workbench`, the development workbench (the task pane beside an in-memory Excel host).
// `npm run build` is the production bundle; it never contains the workbench.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import zlib from 'node:zlib';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import CopyWebpackPlugin from 'copy-webpack-plugin';

const require = createRequire(import.meta.url);
const root = path.dirname(fileURLToPath(import.meta.url));
const DEV_PORT = Number(process.env.QFILL_DEV_PORT || 3001);
export const TASKPANE_BUDGET_GZIP = 60 * 1024;

/** Prints the gzipped size of each entry's JavaScript, and fails the build when the task pane is over budget. */
class BundleSizePlugin {
  apply(compiler) {
    compiler.hooks.afterEmit.tap('BundleSizePlugin', (compilation) => {
      // The dev server emits into memory: read and write through whatever file system webpack used.
      const ofs = compiler.outputFileSystem;
      const rows = [];
      for (const [name, entry] of compilation.entrypoints) {
        let raw = 0;
        let gz = 0;
        for (const file of entry.getFiles().filter((f) => f.endsWith('.js'))) {
          const source = ofs.readFileSync(path.join(compiler.options.output.path, file));
          raw += source.length;
          gz += zlib.gzipSync(source, { level: 9 }).length;
        }
        rows.push({ name, raw, gz });
        if (name === 'taskpane' && compiler.options.mode === 'production' && gz > TASKPANE_BUDGET_GZIP) {
          compilation.errors.push(new Error(`task pane bundle is ${(gz / 1024).toFixed(1)} KB gzipped, over the 60 KB budget`));
        }
      }
      for (const r of rows) {
        console.log(`bundle ${r.name.padEnd(10)} ${(r.raw / 1024).toFixed(1).padStart(7)} KB  ${(r.gz / 1024).toFixed(1).padStart(6)} KB gzipped`);
      }
      ofs.mkdirSync(compiler.options.output.path, { recursive: true });
      ofs.writeFileSync(path.join(compiler.options.output.path, 'bundle-sizes.json'), JSON.stringify(rows, null, 2));
    });
  }
}

async function httpsOptions() {
  // office-addin-dev-certs installs its CA with sudo, which fails on machines without it; the generated
  // files are still usable once the CA is trusted by hand (see README).
  const devCerts = require('office-addin-dev-certs');
  const dir = path.join(process.env.HOME || '.', '.office-addin-dev-certs');
  const files = { cert: path.join(dir, 'localhost.crt'), key: path.join(dir, 'localhost.key'), ca: path.join(dir, 'ca.crt') };
  if (!fs.existsSync(files.cert)) await devCerts.generateCertificates(files.ca, files.cert, files.key, 30);
  return { key: fs.readFileSync(files.key), cert: fs.readFileSync(files.cert), ca: fs.readFileSync(files.ca) };
}

export default async (env = {}, argv = {}) => {
  const mode = argv.mode || 'production';
  const dev = mode === 'development';
  const withWorkbench = Boolean(env.workbench);
  const entry = {
    taskpane: './src/taskpane/index.tsx',
    commands: './src/commands/commands.ts',
  };
  const pages = [
    new HtmlWebpackPlugin({ filename: 'taskpane.html', template: './src/taskpane/taskpane.html', chunks: ['taskpane'] }),
    new HtmlWebpackPlugin({ filename: 'commands.html', template: './src/commands/commands.html', chunks: ['commands'] }),
  ];
  if (withWorkbench) {
    entry.workbench = './src/workbench/index.tsx';
    pages.push(new HtmlWebpackPlugin({ filename: 'workbench.html', template: './src/workbench/workbench.html', chunks: ['workbench'] }));
  }
  return {
    mode,
    devtool: dev ? 'source-map' : false,
    entry,
    output: { path: path.join(root, 'dist'), filename: '[name].[contenthash:8].js', clean: true },
    resolve: {
      extensions: ['.ts', '.tsx', '.js'],
      alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: { loader: 'ts-loader', options: { transpileOnly: true, compilerOptions: { noEmit: false, sourceMap: dev } } },
        },
      ],
    },
    performance: { hints: false },
    stats: 'errors-warnings',
    plugins: [
      ...pages,
      new CopyWebpackPlugin({
        patterns: [
          { from: 'assets', to: 'assets' },
          { from: 'src/static/help.html', to: 'help.html' },
          { from: 'manifest.xml', to: 'manifest.xml' },
        ],
      }),
      new BundleSizePlugin(),
    ],
    devServer: {
      port: DEV_PORT,
      headers: { 'Access-Control-Allow-Origin': '*' },
      server: { type: 'https', options: dev && !env.http ? await httpsOptions() : undefined },
      static: false,
      // The task pane talks to its own origin by default: forward the API to the local service
      // (`npx qfill serve`, or `npm start`), so the dev server needs no CORS.
      proxy: [{ context: ['/api'], target: process.env.QFILL_SERVICE_URL || 'https://localhost:3000', secure: false, changeOrigin: true }],
    },
  };
};
