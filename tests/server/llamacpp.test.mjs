// textedge serve in front of a real llama.cpp llama-server (random-weight Qwen3 with the real
// tokenizer, from scripts/engine.sh), through the official OpenAI client.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OpenAI, ROOT, client, collect, startLlamaServer, startServe, stop, whole } from './serve_helpers.mjs';

const MODEL = path.join(ROOT, 'models/qwen3');
const TOOLS = [{ type: 'function', function: { name: 'get_weather', description: 'Weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string', maxLength: 12 } }, required: ['city'], additionalProperties: false } } }];
const user = (content) => [{ role: 'user', content }];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let llama, server, openai;
before(async () => {
  llama = await startLlamaServer({ ctx: 8192, slots: 4 });
  server = await startServe(['-m', MODEL, '--engine', `llamacpp://127.0.0.1:${llama.port}`, '--no-request-log']);
  openai = client(server.base);
});
after(async () => {
  if (server) await stop(server.child);
  if (llama) await stop(llama.child);
});

async function slotsBusy() {
  const slots = await (await fetch(`${llama.base}/slots`)).json();
  return slots.filter((s) => s.is_processing).length;
}

describe('llama-server through textedge serve', () => {
  it('a seeded request gives the same answer streamed and whole, with usage', async () => {
    const request = { model: 'qwen3', messages: user('Hello there'), max_tokens: 24, seed: 7, temperature: 1 };
    const res = await openai.chat.completions.create(request);
    const s = await collect(await openai.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } }));
    assert.deepEqual(s.choices[0].content, whole(res.choices[0]).content);
    assert.equal(s.choices[0].finish_reason, res.choices[0].finish_reason);
    assert.deepEqual(s.usage, res.usage);
    assert.equal(res.usage.completion_tokens, 24);
    assert.equal(res.choices[0].finish_reason, 'length');
  });

  it('the prompt ids textedge sends are the ones llama-server counts', async () => {
    const request = { model: 'qwen3', messages: user('Count these tokens: 世界 👋🏽 café'), max_tokens: 1 };
    const res = await openai.chat.completions.create(request);
    const t = await (await fetch(`${server.base}/tokenize`, { method: 'POST', body: JSON.stringify({ messages: request.messages }) })).json();
    assert.equal(res.usage.prompt_tokens, t.count);
  });

  it('a stop string found in the text ends it there, and the engine slot is freed', async () => {
    const base = { model: 'qwen3', messages: user('Write something'), max_tokens: 64, seed: 3, temperature: 1.5 };
    const full = whole((await openai.chat.completions.create(base)).choices[0]).content;
    const stopAt = Math.floor(full.length / 2);
    const stopString = full.slice(stopAt, stopAt + 3);
    assert.ok(stopString.length === 3, `text too short: ${JSON.stringify(full)}`);
    const cut = await openai.chat.completions.create({ ...base, stop: [stopString] });
    assert.equal(cut.choices[0].message.content, full.slice(0, full.indexOf(stopString)));
    assert.equal(cut.choices[0].finish_reason, 'stop');
    for (let i = 0; i < 50 && (await slotsBusy()) > 0; i++) await sleep(20);
    assert.equal(await slotsBusy(), 0);
  });

  it('logprobs: one per generated token, with top_logprobs', async () => {
    const res = await openai.chat.completions.create({ model: 'qwen3', messages: user('Hi'), max_tokens: 8, seed: 1,
      logprobs: true, top_logprobs: 2 });
    const lp = res.choices[0].logprobs.content;
    assert.equal(lp.length, res.usage.completion_tokens);
    for (const t of lp) {
      assert.ok(t.logprob <= 0);
      assert.equal(t.top_logprobs.length, 2);
      assert.ok(Array.isArray(t.bytes));
    }
  });

  it('n = 2 gives two choices', async () => {
    const res = await openai.chat.completions.create({ model: 'qwen3', messages: user('Hi'), max_tokens: 5, n: 2, seed: 5 });
    assert.equal(res.choices.length, 2);
    assert.equal(res.usage.completion_tokens, 10);
  });

  it('a prompt longer than the engine context is a 400 with the numbers', async () => {
    await assert.rejects(openai.chat.completions.create({ model: 'qwen3', messages: user('word '.repeat(3000)) }),
      (e) => e instanceof OpenAI.BadRequestError && /maximum context length is 2048 tokens/.test(e.message));
  });

  it('a client that disconnects mid-stream frees its engine slot within milliseconds', async () => {
    const controller = new AbortController();
    const s = await openai.chat.completions.create({ model: 'qwen3', messages: user('Go on'), max_tokens: 1500, stream: true,
      ignore_eos: true }, { signal: controller.signal });
    let chunks = 0;
    try {
      // Out of the loop at once: the client may still hand over a chunk it had buffered.
      for await (const _ of s) if (++chunks === 3) { controller.abort(); break; }
    } catch {}  // the client may end the loop or raise its abort error
    assert.equal(chunks, 3);
    const t0 = Date.now();
    while ((await slotsBusy()) > 0 && Date.now() - t0 < 2000) await sleep(5);
    assert.equal(await slotsBusy(), 0, 'the slot is still busy 2 s after the client left');
    const metrics = await (await fetch(`${server.base}/metrics`)).text();
    assert.match(metrics, /textedge_client_disconnects_total [1-9]/);
  });

  it('tool_choice required forces a hermes tool call whose arguments follow the schema', async () => {
    for (const tool_choice of ['required', { type: 'function', function: { name: 'get_weather' } }]) {
      const res = await openai.chat.completions.create({ model: 'qwen3', messages: user('Weather?'), tools: TOOLS, tool_choice,
        max_tokens: 200, seed: 11, chat_template_kwargs: { enable_thinking: false } });
      const calls = res.choices[0].message.tool_calls;
      assert.ok(calls?.length >= 1, JSON.stringify(res.choices[0]));
      assert.equal(calls[0].function.name, 'get_weather');
      const args = JSON.parse(calls[0].function.arguments);
      assert.equal(typeof args.city, 'string');
      assert.deepEqual(Object.keys(args), ['city']);
    }
  });

  it('response_format json_schema gives JSON that follows the schema', async () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 9 }, ok: { type: 'boolean' } },
      required: ['n', 'ok'], additionalProperties: false };
    const res = await openai.chat.completions.create({ model: 'qwen3', messages: user('JSON please'), max_tokens: 100, seed: 2,
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema } }, chat_template_kwargs: { enable_thinking: false } });
    const v = JSON.parse(res.choices[0].message.content);
    assert.ok(Number.isInteger(v.n) && v.n >= 1 && v.n <= 9);
    assert.equal(typeof v.ok, 'boolean');
  });

  it('32 concurrent streams all finish with their token counts', async () => {
    const results = await Promise.all(Array.from({ length: 32 }, async (_, i) =>
      collect(await openai.chat.completions.create({ model: 'qwen3', messages: user(`Request ${i}`), max_tokens: 16, seed: i,
        stream: true, stream_options: { include_usage: true } }))));
    for (const r of results) {
      assert.equal(r.usage.completion_tokens, 16);
      assert.equal(r.choices[0].finish_reason, 'length');
    }
  });

  it('an engine that disappears ends the stream with an error and /health says so', async () => {
    const s = await openai.chat.completions.create({ model: 'qwen3', messages: user('Go on'), max_tokens: 1500, stream: true,
      ignore_eos: true });
    let chunks = 0;
    await assert.rejects((async () => {
      for await (const _ of s) if (++chunks === 3) llama.child.kill('SIGKILL');
    })(), (e) => e instanceof OpenAI.APIError);
    assert.equal((await fetch(`${server.base}/health`)).status, 503);
    await assert.rejects(openai.chat.completions.create({ model: 'qwen3', messages: user('Hi'), max_tokens: 2 }),
      (e) => e.status === 502);
  });
});
