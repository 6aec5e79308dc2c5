/**
 * The language model of the documents-only eval (`npm run eval:answers -- --documents-only`), and a record
 * of every request it was sent, so a person can read what each question was given:
 *
 *  - `--model stub`: the loopback stub model (test/service/llm/stub-model.ts). Nothing leaves the machine;
 *    its replies are canned (the first allowed value, citing evidence 1), so agreement means nothing here;
 *    what it shows is exactly what a model would be given.
 *  - the service's own model settings (QFILL_LLM_BASE_URL and QFILL_LLM_MODEL, with QFILL_LLM_API_KEY,
 *    QFILL_LLM_API_VERSION…): the service is pointed at a loopback proxy that records each request and
 *    forwards it to the configured model with its credentials.
 *  - neither: no model, the extractive answers.
 *
 * The service reads its model settings when it starts, so this sets them in the process environment
 * before the app is built, and `close` puts them back.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authHeaders, chatEndpointFrom } from '../src/service/llm/endpoint';
import { type ModelInput, modelInput, startStubModel } from '../test/service/llm/stub-model';

export interface EvalModel {
  kind: 'none' | 'stub' | 'configured';
  /** One line for the eval's output: which model, and what its figures mean. */
  describe: string;
  /** Every request sent to the model so far, in arrival order (take them with `splice`). */
  requests: ModelInput[];
  close(): Promise<void>;
}

export async function evalModel(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<EvalModel> {
  const i = argv.indexOf('--model');
  const wanted = i >= 0 ? argv[i + 1] : undefined;
  if (wanted !== undefined && wanted !== 'stub')
    throw new Error(`--model takes "stub"; a real model is configured with QFILL_LLM_BASE_URL and QFILL_LLM_MODEL`);
  const saved = { ...env };
  const restore = () => {
    for (const k of Object.keys(env)) if (!(k in saved)) delete env[k];
    Object.assign(env, saved);
  };
  if (wanted === 'stub') {
    const stub = await startStubModel();
    Object.assign(env, { QFILL_LLM_BASE_URL: stub.url, QFILL_LLM_MODEL: 'stub-recorder' });
    delete env.QFILL_LLM_API_KEY;
    delete env.QFILL_LLM_API_VERSION;
    // One question a request unless told otherwise: each request is then exactly one question's evidence.
    env.QFILL_LLM_BATCH_QUESTIONS ??= '1';
    return {
      kind: 'stub',
      describe: `stub model (loopback, canned replies: every list answer is its first allowed value), ${env.QFILL_LLM_BATCH_QUESTIONS} question(s) a request. AGREEMENT AND COVERAGE BELOW ARE MEANINGLESS in stub mode; what was sent is not.`,
      requests: stub.requests,
      close: async () => {
        restore();
        await stub.close();
      },
    };
  }
  if (!env.QFILL_LLM_BASE_URL || !env.QFILL_LLM_MODEL)
    return { kind: 'none', describe: 'no language model (extractive answers)', requests: [], close: async () => restore() };
  const proxy = await recordingProxy({ baseUrl: env.QFILL_LLM_BASE_URL, model: env.QFILL_LLM_MODEL, apiKey: env.QFILL_LLM_API_KEY }, env);
  env.QFILL_LLM_BASE_URL = proxy.url;
  // The proxy authenticates (an Azure key goes in its own header, which the service would not send to a loopback URL).
  delete env.QFILL_LLM_API_KEY;
  return {
    kind: 'configured',
    describe: `${saved.QFILL_LLM_MODEL} at ${saved.QFILL_LLM_BASE_URL} (requests recorded by a loopback proxy)`,
    requests: proxy.requests,
    close: async () => {
      restore();
      await proxy.close();
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let raw = '';
  for await (const chunk of req) raw += String(chunk);
  return raw;
}

/** A loopback server that records each chat request and forwards it, with the endpoint's credentials. */
async function recordingProxy(
  real: { baseUrl: string; model: string; apiKey?: string },
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; requests: ModelInput[]; close(): Promise<void> }> {
  const endpoint = chatEndpointFrom(real, env);
  const requests: ModelInput[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      try {
        requests.push(modelInput(JSON.parse(raw || '{}') as Record<string, unknown>));
      } catch {
        // Not JSON: forwarded as it is, nothing to record.
      }
      try {
        const upstream = await fetch(`${real.baseUrl.replace(/\/+$/, '')}${req.url ?? ''}`, {
          method: req.method,
          headers: { 'content-type': 'application/json', ...authHeaders(endpoint) },
          body: req.method === 'GET' || req.method === 'HEAD' ? undefined : raw,
        });
        res.statusCode = upstream.status;
        res.setHeader('content-type', upstream.headers.get('content-type') ?? 'application/json');
        res.end(Buffer.from(await upstream.arrayBuffer()));
      } catch (error) {
        res.statusCode = 502;
        res.end(JSON.stringify({ error: { message: `recording proxy: ${(error as Error).message}` } }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One question of a fill and the request that carried it (null: answered without the model). */
export interface GivenQuestion {
  file: string;
  id: string;
  section: string;
  question: string;
  request: ModelInput | null;
  /** Questions in that request (its evidence is shared by them). */
  batch: number;
}

/** The first line of a question, as a batched prompt's `[qN]` line carries it. */
const firstLine = (text: string) => text.trim().split('\n')[0]!.trim();

/**
 * Each question of a fill with the request that carried it. Requests name a question by its words only:
 * questions with the same words (a CAIQ question asked once per domain) are matched in reading order.
 */
export function givenPerQuestion(file: string, questions: { id: string; section: string; text: string }[], requests: ModelInput[]): GivenQuestion[] {
  const byText = new Map<string, ModelInput[]>();
  for (const r of requests) for (const q of r.questions) byText.set(firstLine(q.text), [...(byText.get(firstLine(q.text)) ?? []), r]);
  return questions.map((q) => {
    const request = byText.get(firstLine(q.text))?.shift() ?? null;
    return { file, id: q.id, section: q.section, question: q.text, request, batch: request?.questions.length ?? 0 };
  });
}

/** The whole record as Markdown, question by question, for a person to read. */
export function givenMarkdown(model: EvalModel, given: GivenQuestion[]): string {
  const out = [
    '# What the language model was given, question by question',
    '',
    `Model: ${model.describe}`,
    '',
    'Evidence is listed in the order sent (evidence 1 first); a request with several questions shares its evidence among them.',
  ];
  for (const g of given) {
    out.push('', `## ${g.file} · ${g.id || '(no id)'}${g.section ? ` [${g.section}]` : ''}`, '', g.question.trim());
    if (!g.request) {
      out.push('', '_Not sent to the model (answered without it: no evidence, an identity field, or a repeat of an earlier answer)._');
      continue;
    }
    out.push(
      '',
      g.batch > 1
        ? `Sent with ${g.batch - 1} other question(s); ${g.request.evidence.length} evidence blocks:`
        : `${g.request.evidence.length} evidence blocks:`,
      '',
    );
    for (const e of g.request.evidence) out.push(`${e.id}. (${e.label}) ${e.text.replace(/\s+/g, ' ').trim()}`);
  }
  return `${out.join('\n')}\n`;
}
