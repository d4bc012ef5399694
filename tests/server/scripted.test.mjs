// textedge serve over the scripted engine, through the official OpenAI client: exact texts,
// streamed and whole answers that agree, reasoning and tool calls equal to `textedge parse`,
// stops, limits, errors, disconnects and 200 concurrent streams.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OpenAI, ROOT, TEXTEDGE, client, collect, parseWhole, shape, startServe, stop, whole } from './serve_helpers.mjs';

const SCRIPT = path.join(ROOT, 'tests/data/server/scripted.jsonl');
const ANSWERS = fs.readFileSync(SCRIPT, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const answer = (match) => ANSWERS.find((a) => a.match === match).text;
const MODEL = path.join(ROOT, 'models/qwen3');
const TOOLS = [{ type: 'function', function: { name: 'get_weather', description: 'Weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] } } }];
const KEY = 'test-key';


let server, openai;
before(async () => {
  server = await startServe(['-m', MODEL, '--engine', `scripted:${SCRIPT}`, '--api-key', KEY, '--max-concurrent', '512',
    '--no-request-log']);
  openai = client(server.base, KEY);
});
after(async () => { if (server) await stop(server.child); });

async function both(request) {
  const streamed = await collect(await openai.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } }));
  const res = await openai.chat.completions.create(request);
  return { streamed, res, wholeChoices: res.choices.map(whole) };
}

describe('chat completions over the scripted engine', () => {
  for (const [name, prompt, match] of [
    ['plain text', 'Say hello', ''],
    ['emoji split across tokens, CJK, Thai, combining marks', 'Some emoji please', 'emoji'],
    ['reasoning', 'Please think about it', 'think about it'],
    ['a tool call after reasoning', 'What is the weather in Paris?', 'weather in Paris'],
    ['two parallel tool calls', 'Weather in two cities', 'two cities'],
  ]) {
    it(`${name}: streamed == whole == textedge parse`, async () => {
      const request = { model: 'qwen3', messages: [{ role: 'user', content: prompt }], tools: TOOLS };
      const { streamed, res, wholeChoices } = await both(request);
      const expected = parseWhole(answer(match), 'hermes', 'qwen3');
      assert.deepEqual(shape(streamed.choices[0]), expected);
      assert.deepEqual(shape(wholeChoices[0]), expected);
      assert.equal(streamed.choices[0].role, 'assistant');
      assert.deepEqual(streamed.usage, res.usage);
      assert.ok(res.id.startsWith('chatcmpl-'));
      for (const c of streamed.choices[0].tool_calls) assert.match(c.id, /^call_/);
    });
  }

  it('Qwen3 enable_thinking off: the prompt closes the think block, the answer is all content', async () => {
    const messages = [{ role: 'user', content: 'Say hello' }];
    const t = await (await fetch(`${server.base}/tokenize`, { method: 'POST', body: JSON.stringify({ messages,
      chat_template_kwargs: { enable_thinking: false } }) })).json();
    const prompt = execFileSync(TEXTEDGE(), ['render', '-m', MODEL], { input: JSON.stringify({ messages,
      chat_template_kwargs: { enable_thinking: false } }) }).toString();
    assert.ok(prompt.endsWith('<think>\n\n</think>\n\n'));
    assert.deepEqual(t.tokens, JSON.parse(execFileSync(TEXTEDGE(), ['encode', '-m', MODEL], { input: prompt }).toString()));
    for (const stream of [true, false]) {
      const r = { model: 'qwen3', messages, chat_template_kwargs: { enable_thinking: false }, stream };
      const m = stream ? (await collect(await openai.chat.completions.create(r))).choices[0]
        : whole((await openai.chat.completions.create(r)).choices[0]);
      assert.equal(m.content, answer(''));
      assert.equal(m.reasoning_content, '');
    }
  });

  it('the text arrives exactly, byte for byte, in many chunks', async () => {
    const s = await collect(await openai.chat.completions.create({ model: 'qwen3', stream: true,
      messages: [{ role: 'user', content: 'emoji' }] }));
    assert.equal(s.choices[0].content, answer('emoji'));
    assert.ok(s.chunks > 4);
  });

  it('a stop string split across tokens ends the text before it, and the engine request', async () => {
    for (const stream of [true, false]) {
      const r = { model: 'qwen3', messages: [{ role: 'user', content: 'stop here' }], stop: ['OPWO', 'zzz'], stream };
      const m = stream ? (await collect(await openai.chat.completions.create(r))).choices[0]
        : whole((await openai.chat.completions.create(r)).choices[0]);
      assert.equal(m.content, 'alpha beta ST');
      assert.equal(m.finish_reason, 'stop');
    }
  });

  it('include_stop_str_in_output keeps the stop string', async () => {
    const res = await openai.chat.completions.create({ model: 'qwen3', messages: [{ role: 'user', content: 'stop here' }],
      stop: 'STOPWORD', include_stop_str_in_output: true });
    assert.equal(res.choices[0].message.content, 'alpha beta STOPWORD');
  });

  it('max_tokens gives finish_reason length with that many tokens', async () => {
    for (const stream of [true, false]) {
      const r = { model: 'qwen3', messages: [{ role: 'user', content: 'long answer' }], max_tokens: 7, stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}) };
      const out = stream ? await collect(await openai.chat.completions.create(r)) : await openai.chat.completions.create(r);
      const m = stream ? out.choices[0] : whole(out.choices[0]);
      assert.equal(m.finish_reason, 'length');
      assert.equal(out.usage.completion_tokens, 7);
      assert.ok(answer('long answer').startsWith(m.content) && m.content.length > 0);
    }
  });

  it('n > 1 gives that many choices, each complete', async () => {
    const { streamed, res } = await both({ model: 'qwen3', messages: [{ role: 'user', content: 'emoji' }], n: 3 });
    assert.equal(streamed.choices.length, 3);
    assert.equal(res.choices.length, 3);
    for (const c of [...streamed.choices, ...res.choices.map(whole)]) assert.equal(c.content, answer('emoji'));
    assert.equal(res.usage.completion_tokens, 3 * (res.usage.completion_tokens / 3));
  });

  it('logprobs: one entry per token, the tokens spell the text', async () => {
    const res = await openai.chat.completions.create({ model: 'qwen3', messages: [{ role: 'user', content: 'Say hello' }],
      logprobs: true, top_logprobs: 3 });
    const lp = res.choices[0].logprobs.content;
    assert.equal(lp.length, res.usage.completion_tokens);
    // The last token is EOS: counted and given logprobs, as vLLM does, but not in the text.
    assert.equal(lp.at(-1).token, '<|im_end|>');
    const bytes = Buffer.concat(lp.slice(0, -1).map((t) => Buffer.from(t.bytes)));
    assert.equal(bytes.toString('utf8'), answer(''));
    for (const t of lp) assert.equal(t.top_logprobs.length, 3);
    const s = await collect(await openai.chat.completions.create({ model: 'qwen3', stream: true, logprobs: true,
      messages: [{ role: 'user', content: 'Say hello' }] }));
    assert.deepEqual(s.choices[0].logprobs.map((t) => t.token), lp.map((t) => t.token));
  });

  it('tool_choice none renders no tools and parses no calls', async () => {
    const res = await openai.chat.completions.create({ model: 'qwen3', tools: TOOLS, tool_choice: 'none',
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }] });
    assert.equal(res.choices[0].message.tool_calls, undefined);
    assert.ok(res.choices[0].message.content.includes('<tool_call>'));
  });

  it('assistant history with tool calls and tool results renders', async () => {
    const res = await openai.chat.completions.create({ model: 'qwen3', tools: TOOLS, messages: [
      { role: 'user', content: 'What is the weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function',
        function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp": 21}' },
      { role: 'user', content: [{ type: 'text', text: 'Some' }, { type: 'text', text: 'emoji' }] }] });
    // The parts are joined with "\n" (the template reads content as a string): "Some\nemoji" matches.
    assert.equal(res.choices[0].message.content, answer('emoji'));
    const t = await (await fetch(`${server.base}/tokenize`, { method: 'POST', body: JSON.stringify({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Some' }, { type: 'text', text: 'emoji' }] }] }) })).json();
    const prompt = execFileSync(TEXTEDGE(), ['render', '-m', MODEL], { input: JSON.stringify({
      messages: [{ role: 'user', content: 'Some\nemoji' }] }) }).toString();
    const ids = JSON.parse(execFileSync(TEXTEDGE(), ['encode', '-m', MODEL], { input: prompt }).toString());
    assert.deepEqual(t.tokens, ids);
  });
});

describe('text completions', () => {
  it('prompt as text and as ids give the same answer', async () => {
    const ids = JSON.parse(execFileSync(TEXTEDGE(), ['encode', '-m', MODEL, 'tell me about emoji']).toString());
    const a = await openai.completions.create({ model: 'qwen3', prompt: 'tell me about emoji', max_tokens: 100 });
    const b = await openai.completions.create({ model: 'qwen3', prompt: ids, max_tokens: 100 });
    assert.equal(a.choices[0].text, answer('emoji'));
    assert.equal(b.choices[0].text, answer('emoji'));
    assert.equal(a.usage.prompt_tokens, ids.length);
    const s = await openai.completions.create({ model: 'qwen3', prompt: 'tell me about emoji', max_tokens: 100, stream: true });
    let text = '';
    for await (const c of s) text += c.choices[0]?.text ?? '';
    assert.equal(text, answer('emoji'));
  });
});

describe('other endpoints', () => {
  it('/v1/models lists the served model', async () => {
    const models = await openai.models.list();
    assert.deepEqual(models.data.map((m) => m.id), ['qwen3']);
  });
  it('/tokenize and /detokenize round-trip', async () => {
    const t = await (await fetch(`${server.base}/tokenize`, { method: 'POST', body: JSON.stringify({ prompt: 'Hello 世界 👋' }) })).json();
    const expected = JSON.parse(execFileSync(TEXTEDGE(), ['encode', '-m', MODEL, 'Hello 世界 👋']).toString());
    assert.deepEqual(t.tokens, expected);
    assert.equal(t.count, expected.length);
    const d = await (await fetch(`${server.base}/detokenize`, { method: 'POST', body: JSON.stringify({ tokens: t.tokens }) })).json();
    assert.equal(d.prompt, 'Hello 世界 👋');
  });
  it('/health and /metrics', async () => {
    assert.equal((await fetch(`${server.base}/health`)).status, 200);
    const m = await (await fetch(`${server.base}/metrics`)).text();
    assert.match(m, /textedge_time_to_first_token_seconds_bucket/);
    assert.match(m, /textedge_generation_tokens_total \d+/);
  });
});

describe('errors are OpenAI error objects the client raises', () => {
  it('wrong API key: 401 AuthenticationError', async () => {
    await assert.rejects(client(server.base, 'wrong').models.list(), OpenAI.AuthenticationError);
  });
  it('unknown model: 404 NotFoundError', async () => {
    await assert.rejects(openai.chat.completions.create({ model: 'gpt-9', messages: [{ role: 'user', content: 'x' }] }),
      (e) => e instanceof OpenAI.NotFoundError && /gpt-9/.test(e.message));
  });
  it('a field of the wrong type: 400 naming it', async () => {
    await assert.rejects(openai.chat.completions.create({ model: 'qwen3', max_tokens: 'many', messages: [{ role: 'user', content: 'x' }] }),
      (e) => e instanceof OpenAI.BadRequestError && e.param === 'max_tokens');
    await assert.rejects(openai.chat.completions.create({ model: 'qwen3', messages: [{ role: 'user' , content: 5 }] }),
      (e) => e instanceof OpenAI.BadRequestError && e.param === 'messages[0].content');
  });
  it('malformed JSON: 400', async () => {
    const r = await fetch(`${server.base}/v1/chat/completions`, { method: 'POST', body: '{"messages": [',
      headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(r.status, 400);
    assert.equal((await r.json()).error.code, 'invalid_json');
  });
  it('a prompt longer than the context: 400 with the numbers', async () => {
    await assert.rejects(openai.chat.completions.create({ model: 'qwen3', messages: [{ role: 'user', content: 'word '.repeat(40000) }] }),
      (e) => e instanceof OpenAI.BadRequestError && /maximum context length is 32768 tokens/.test(e.message));
  });
  it('an engine failure mid-stream ends the stream with an error the client raises', async () => {
    const s = await openai.chat.completions.create({ model: 'qwen3', stream: true, messages: [{ role: 'user', content: 'crash' }] });
    await assert.rejects(collect(s), (e) => e instanceof OpenAI.APIError && /scripted engine failure/.test(e.message));
    await assert.rejects(openai.chat.completions.create({ model: 'qwen3', messages: [{ role: 'user', content: 'crash' }] }),
      (e) => e.status === 502);
  });
});

describe('load', () => {
  it('200 simultaneous streams: every text exact, none mixed', async () => {
    const prompts = ['emoji', 'long answer', 'Say hello', 'stop here'];
    const results = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
      const p = prompts[i % prompts.length];
      const s = await collect(await openai.chat.completions.create({ model: 'qwen3', stream: true, messages: [{ role: 'user', content: p }] }));
      return [p, s.choices[0].content];
    }));
    for (const [p, text] of results) assert.equal(text, answer(p === 'Say hello' ? '' : p));
  });
});
