// Processes and clients for the server tests: textedge serve, llama-server, the official
// OpenAI client (npm `openai`, from tools/reference).
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(ROOT, 'tools/reference/package.json'));
export const OpenAI = require('openai');

export function env(name, hint) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: ${hint}`);
  return v;
}

export const TEXTEDGE = () => env('TEXTEDGE_BIN', 'run through `make test` (ctest sets it to the built textedge)');

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const children = new Set();
process.on('exit', () => { for (const c of children) c.kill('SIGKILL'); });

// Starts a process; resolves when a line of its output matches `ready` (with the match).
export function start(cmd, args, ready, { timeoutMs = 60000, envExtra = {} } = {}) {
  const child = spawn(cmd, args, { env: { ...process.env, ...envExtra }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  child.log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} not ready in ${timeoutMs} ms:\n${child.log.slice(-2000)}`)), timeoutMs);
    const onData = (d) => {
      child.log += d.toString();
      const m = ready && child.log.match(ready);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited (${code ?? signal}) before it was ready:\n${child.log.slice(-2000)}`));
    });
  });
}

export async function stop(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
  return new Promise((resolve) => {
    child.once('exit', (code, sig) => resolve({ code, signal: sig }));
    child.kill(signal);
  });
}

export async function startServe(args) {
  const { child, match } = await start(TEXTEDGE(), ['serve', '--port', '0', ...args], /listening on http:\/\/([\d.]+):(\d+)/);
  const base = `http://127.0.0.1:${match[2]}`;
  return { child, base, port: Number(match[2]) };
}

export async function startLlamaServer({ ctx = 8192, slots = 4 } = {}) {
  const bin = env('LLAMA_SERVER', 'run `eval "$(scripts/engine.sh)"` or `make test`');
  const model = env('ENGINE_MODEL', 'run `eval "$(scripts/engine.sh)"` or `make test`');
  const port = await freePort();
  const { child } = await start(bin, ['-m', model, '-c', String(ctx), '-np', String(slots), '--host', '127.0.0.1',
    '--port', String(port), '--no-webui'], /listening on http/, { timeoutMs: 120000 });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/health`)).status === 200) return { child, base, port };
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('llama-server did not become healthy');
}

export function client(base, apiKey = 'none', extra = {}) {
  return new OpenAI({ baseURL: `${base}/v1`, apiKey, maxRetries: 0, timeout: 60000, ...extra });
}

// The chunks of a stream folded into one message per choice, as a client does.
export async function collect(stream) {
  const choices = new Map();
  let usage = null, chunks = 0, id = null;
  for await (const chunk of stream) {
    chunks++;
    id ??= chunk.id;
    if (chunk.id !== id) throw new Error(`chunk id changed: ${chunk.id} after ${id}`);
    if (chunk.usage) usage = chunk.usage;
    for (const c of chunk.choices) {
      const m = choices.get(c.index) ?? { role: null, content: '', reasoning_content: '', tool_calls: [], finish_reason: null, logprobs: [] };
      const d = c.delta ?? {};
      if (d.role) m.role = d.role;
      if (d.content) m.content += d.content;
      if (d.reasoning_content) m.reasoning_content += d.reasoning_content;
      for (const t of d.tool_calls ?? []) {
        m.tool_calls[t.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } };
        const call = m.tool_calls[t.index];
        if (t.id) call.id = t.id;
        if (t.function?.name) call.function.name += t.function.name;
        if (t.function?.arguments) call.function.arguments += t.function.arguments;
      }
      if (c.logprobs?.content) m.logprobs.push(...c.logprobs.content);
      if (c.finish_reason) m.finish_reason = c.finish_reason;
      choices.set(c.index, m);
    }
  }
  return { choices: [...choices.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]), usage, chunks };
}

// A non-streamed message in the same shape as collect()'s.
export function whole(choice) {
  const m = choice.message;
  return {
    role: m.role, content: m.content ?? '', reasoning_content: m.reasoning_content ?? '',
    tool_calls: m.tool_calls ?? [], finish_reason: choice.finish_reason, logprobs: choice.logprobs?.content ?? [],
  };
}

// A message without its random call ids, to compare answers: from collect(), whole(), or
// `textedge parse --whole` of the same text (parseWhole).
export const shape = (m) => ({ content: m.content, reasoning_content: m.reasoning_content, finish_reason: m.finish_reason,
  tool_calls: m.tool_calls.map((c) => ({ name: c.function.name, arguments: c.function.arguments })) });

export function parseWhole(text, format, reasoning) {
  const out = execFileSync(TEXTEDGE(), ['parse', '--format', format, '--reasoning', reasoning, '--whole'],
    { input: JSON.stringify(text) + '\n' }).toString();
  const m = JSON.parse(out);
  return shape({ content: m.content ?? '', reasoning_content: m.reasoning_content ?? '', finish_reason: m.finish_reason,
    tool_calls: m.tool_calls ?? [] });
}
