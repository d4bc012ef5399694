// make demo's serving part: llama.cpp's llama-server (random-weight Qwen3, real tokenizer) with
// textedge serve in front, driven by the official OpenAI client; then both are stopped.
import path from 'node:path';
import { ROOT, client, collect, startLlamaServer, startServe, stop } from '../tests/server/serve_helpers.mjs';

const t0 = Date.now();
const llama = await startLlamaServer({ ctx: 8192, slots: 4 });
const tLlama = Date.now();
const serve = await startServe(['-m', path.join(ROOT, 'models/qwen3'), '--engine', `llamacpp://127.0.0.1:${llama.port}`,
  '--no-request-log']);
console.log(`   llama-server up in ${((tLlama - t0) / 1000).toFixed(1)} s; textedge serve in front of it in ${Date.now() - tLlama} ms`);
console.log(`   $ textedge serve -m models/qwen3 --engine llamacpp://127.0.0.1:${llama.port} --port ${serve.port}`);
try {
  const openai = client(serve.base);
  console.log('\n   streamed chat request (the weights are random, so the text is too; every id and byte is real):');
  // The random model repeats "\n" (id 198) at low temperature: ban it to show varied text.
  const stream = await openai.chat.completions.create({ model: 'qwen3', stream: true, max_tokens: 40, seed: 42,
    temperature: 2, logit_bias: { 198: -100 },
    stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Tell me about the text boundary.' }] });
  const s = await collect(stream);
  console.log(`   ${s.chunks} chunks -> ${JSON.stringify(s.choices[0].content.slice(0, 160))}`);
  console.log(`   finish_reason ${s.choices[0].finish_reason}, usage ${JSON.stringify(s.usage)}`);

  console.log('\n   forced tool call (tool_choice required: llama-server is constrained by a grammar textedge made):');
  const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object',
    properties: { city: { type: 'string', maxLength: 16 }, unit: { enum: ['celsius', 'fahrenheit'] } }, required: ['city', 'unit'] } } }];
  const res = await openai.chat.completions.create({ model: 'qwen3', tools, tool_choice: 'required', max_tokens: 120, seed: 7,
    chat_template_kwargs: { enable_thinking: false }, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
  const call = res.choices[0].message.tool_calls?.[0];
  console.log(`   finish_reason ${res.choices[0].finish_reason}: ${call ? `${call.function.name}(${call.function.arguments})` : 'no call'}`);
  if (!call) process.exitCode = 1;
} finally {
  await stop(serve.child);
  await stop(llama.child);
}
