// Every tool-call family a model directory's template maps to, through textedge serve: the
// scripted engine streams a model output in that family's syntax (as the model's own ids,
// special tokens included), and the client's assembled answer, streamed and whole, equals
// `textedge parse --whole` on the same text.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT, client, collect, parseWhole, shape, startServe, stop, whole } from './serve_helpers.mjs';

const TEMPLATES = path.join(ROOT, 'tests/data/chat_templates');
const TOOLS = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object',
  properties: { city: { type: 'string' } } } } }, { type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } }];

const CASES = [
  { model: 'qwen3', format: 'hermes', reasoning: 'qwen3', outputs: [
    '<think>\nNeed the weather.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "北京"}}\n</tool_call>',
    'Plain answer with an emoji 🌧️ and no call.'] },
  { model: 'deepseek_v3', format: 'deepseek_v3', reasoning: 'none', outputs: [
    'Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "北京"}\n```<｜tool▁call▁end｜>\n'
      + '<｜tool▁call▁begin｜>function<｜tool▁sep｜>ping\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'] },
  { model: 'llama3_1', template: 'vllm__tool_chat_template_llama3.1_json.jinja', format: 'llama3_json', reasoning: 'none', outputs: [
    '{"name": "get_weather", "parameters": {"city": "Zürich"}}', 'No call here.'] },
  { model: 'llama3_1', template: 'vllm__tool_chat_template_mistral.jinja', format: 'mistral', reasoning: 'none', outputs: [
    '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "ping", "arguments": {}}]'] },
  { model: 'gptoss', template: 'chujiezheng__chatml.jinja', flags: ['--tool-call-parser', 'harmony', '--reasoning-parser', 'harmony'],
    format: 'harmony', reasoning: 'harmony', outputs: [
      '<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather '
        + '<|constrain|>json<|message|>{"city": "Paris"}<|call|>'] },
];


describe('tool-call families through textedge serve', () => {
  for (const c of CASES) {
    it(`${c.model}${c.template ? ` with ${c.template}` : ''}: ${c.format}`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'textedge-families-'));
      const script = path.join(dir, 'script.jsonl');
      fs.writeFileSync(script, c.outputs.map((text, i) => JSON.stringify({ match: i ? `case ${i}` : '', text })).join('\n') + '\n');
      const args = ['-m', path.join(ROOT, 'models', c.model), '--engine', `scripted:${script}`, '--no-request-log', ...(c.flags ?? [])];
      if (c.template) args.push('--chat-template', path.join(TEMPLATES, c.template));
      const server = await startServe(args);
      try {
        assert.match(server.child.log, new RegExp(`tool calls ${c.format}, reasoning ${c.reasoning},`));
        const openai = client(server.base);
        for (const [i, text] of c.outputs.entries()) {
          const request = { model: c.model, tools: TOOLS, messages: [{ role: 'user', content: `case ${i}` }] };
          const expected = parseWhole(text, c.format, c.reasoning);
          const streamed = await collect(await openai.chat.completions.create({ ...request, stream: true }));
          assert.deepEqual(shape(streamed.choices[0]), expected);
          assert.deepEqual(shape(whole((await openai.chat.completions.create(request)).choices[0])), expected);
        }
      } finally {
        await stop(server.child);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
