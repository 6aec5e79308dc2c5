/**
 * `qfill doctor`: checks the configured language-model (and embeddings) endpoint the way the service will
 * use it, and says in words what it found: reachable or not, key accepted, model served, whether it takes
 * `response_format: json_schema` (else the service falls back to JSON-only prompts), and latency.
 * Exit code 0 when the service can answer with what is configured, 1 when it cannot.
 */
import { ChatClient, LlmHttpError } from '../service/llm/client';
import { chatEndpointFrom, isAzure, type ChatEndpoint } from '../service/llm/endpoint';
import { parseReply } from '../service/llm/structured';
import { knowledgeOptionsFromEnv } from '../service/knowledge/options';
import { configProblems, namesOf, problemMessage, readConfig, type Env } from '../service/config/read';

export interface DoctorResult {
  ok: boolean;
  lines: string[];
}

/** A tiny question with a dropdown, so the reply also shows whether the server keeps to an `enum`. */
const PROBE_SCHEMA = {
  name: 'qfill_doctor',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['answer'],
    properties: { answer: { type: 'string', enum: ['Yes', 'No'] } },
  },
};
const PROBE = [
  { role: 'system' as const, content: 'Reply with a single JSON object and nothing else.' },
  { role: 'user' as const, content: 'Is water wet? Reply as JSON: {"answer": "Yes"} or {"answer": "No"}.' },
];

export async function doctor(env: Env = process.env): Promise<DoctorResult> {
  const lines: string[] = [];
  const problems = configProblems(env, namesOf('service'));
  if (problems.length > 0) {
    for (const problem of problems) lines.push(`Configuration: ${problemMessage(problem)}.`);
    lines.push('Verdict: the service cannot use this configuration as it is; see above.');
    return { ok: false, lines };
  }
  const options = knowledgeOptionsFromEnv(env);
  let ok = true;
  if (!options.llm) {
    const c = readConfig(env, ['QFILL_LLM_BASE_URL', 'QFILL_LLM_MODEL']);
    const half = c.QFILL_LLM_BASE_URL || c.QFILL_LLM_MODEL;
    if (half) {
      lines.push('Language model: half configured: set both QFILL_LLM_BASE_URL and QFILL_LLM_MODEL (the service ignores one without the other).');
      ok = false;
    } else {
      lines.push('Language model: none configured (QFILL_LLM_BASE_URL and QFILL_LLM_MODEL unset): answers are extractive, quoted from your documents only.');
    }
  } else {
    ok = (await checkChat(chatEndpointFrom(options.llm, env), lines)) && ok;
  }
  if (options.embeddings) ok = (await checkEmbeddings(chatEndpointFrom(options.embeddings, env, 'QFILL_EMBEDDINGS'), lines)) && ok;
  else lines.push('Embeddings: none configured (QFILL_EMBEDDINGS_BASE_URL and QFILL_EMBEDDINGS_MODEL unset): search is lexical.');
  lines.push(ok ? 'Verdict: the service can answer with this configuration.' : 'Verdict: the service cannot use this configuration as it is; see above.');
  return { ok, lines };
}

function describeEndpoint(endpoint: ChatEndpoint): string {
  const kind = isAzure(endpoint) ? 'Azure OpenAI deployment' : 'OpenAI-compatible endpoint';
  const version = endpoint.apiVersion
    ? `, api-version ${endpoint.apiVersion}`
    : isAzure(endpoint)
      ? ', no api-version (set QFILL_LLM_API_VERSION: Azure requires it)'
      : '';
  const key = endpoint.apiKey ? (isAzure(endpoint) ? 'key sent as api-key' : 'key sent as a bearer token') : 'no key';
  return `${kind} ${endpoint.baseUrl} (model ${endpoint.model}, ${key}${version}; concurrency ${endpoint.concurrency}, timeout ${endpoint.timeoutMs / 1000} s${endpoint.tokenBudget ? `, budget ${endpoint.tokenBudget} tokens per questionnaire` : ''})`;
}

async function checkChat(endpoint: ChatEndpoint, lines: string[]): Promise<boolean> {
  lines.push(`Language model: ${describeEndpoint(endpoint)}`);
  // One try each: a doctor reports what happens, it does not wait out retries.
  const client = new ChatClient(endpoint, { maxAttempts: 1 });
  const started = performance.now();
  let reply;
  try {
    reply = await client.complete(PROBE, PROBE_SCHEMA);
  } catch (error) {
    lines.push(`  not usable: ${explain(error, endpoint, 'chat')}`);
    return false;
  }
  const ms = Math.round(performance.now() - started);
  lines.push(`  reachable, key accepted; model served: ${reply.model}${reply.model !== endpoint.model ? ` (asked for ${endpoint.model})` : ''}`);
  lines.push(
    `  latency: ${ms} ms for a one-line question${reply.tokens ? `, ${reply.tokens} tokens reported` : ', no token usage reported (QFILL_LLM_TOKEN_BUDGET cannot be enforced)'}`,
  );
  if (client.structuredOutput) {
    lines.push('  structured output: supported (response_format json_schema); dropdown values are constrained by the server.');
  } else {
    lines.push(
      '  structured output: NOT supported (the server refused response_format json_schema); the service falls back to JSON-only prompts and checks every value itself.',
    );
  }
  try {
    const parsed = parseReply(reply.content);
    const answer = typeof parsed.answer === 'string' ? parsed.answer : '';
    lines.push(
      ['Yes', 'No'].includes(answer)
        ? `  reply: valid JSON with an allowed value ("${answer}").`
        : `  reply: valid JSON but the value ${JSON.stringify(parsed.answer)} is outside the allowed list; the service would flag such answers.`,
    );
  } catch {
    lines.push(
      `  reply: not JSON (${JSON.stringify(reply.content.slice(0, 80))}); the service would send one repair request per answer and fall back to extractive answers when that fails.`,
    );
  }
  return true;
}

async function checkEmbeddings(endpoint: ChatEndpoint, lines: string[]): Promise<boolean> {
  lines.push(`Embeddings: ${describeEndpoint(endpoint)}`);
  const client = new ChatClient(endpoint, { maxAttempts: 1 });
  const started = performance.now();
  try {
    const [vector] = await client.embed(['Customer data is encrypted at rest.']);
    lines.push(`  reachable; ${vector!.length} dimensions; latency ${Math.round(performance.now() - started)} ms`);
    return true;
  } catch (error) {
    lines.push(`  not usable: ${explain(error, endpoint, 'embeddings')}`);
    return false;
  }
}

function explain(error: unknown, endpoint: ChatEndpoint, what: 'chat' | 'embeddings'): string {
  if (!(error instanceof LlmHttpError)) return (error as Error).message;
  const detail = serverMessage(error.body);
  const prefix = what === 'chat' ? 'QFILL_LLM' : 'QFILL_EMBEDDINGS';
  switch (error.status) {
    case 401:
    case 403:
      return `the key was refused (HTTP ${error.status}${detail}); check ${prefix}_API_KEY${isAzure(endpoint) ? ' (Azure expects the resource key, sent as api-key)' : ''}.`;
    case 404:
      return isAzure(endpoint)
        ? `not found (HTTP 404${detail}); check the deployment name in ${prefix}_BASE_URL and ${prefix}_API_VERSION.`
        : `not found (HTTP 404${detail}); check that ${prefix}_BASE_URL ends with the API root (e.g. /v1) and that the model "${endpoint.model}" exists on the server.`;
    case 429:
      return `rate-limited (HTTP 429${detail}); the service retries with backoff, but this key has no capacity right now.`;
    default:
      return `HTTP ${error.status}${detail}.`;
  }
}

function serverMessage(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    return typeof message === 'string' && message ? `: ${message.slice(0, 160)}` : '';
  } catch {
    return body.trim() ? `: ${body.trim().slice(0, 160)}` : '';
  }
}
