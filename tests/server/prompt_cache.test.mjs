// textedge serve's prompt cache (--prompt-cache, docs/prompt_cache.md): a conversation's next
// turn encodes only what is new, with ids equal to a server that encodes every prompt whole,
// and conversations that share a system prompt do not take each other's entries.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT, client, startServe, stop } from './serve_helpers.mjs';

const SCRIPT = path.join(ROOT, 'tests/data/server/scripted.jsonl');

const metric = async (base, name) =>
  Number((await (await fetch(`${base}/metrics`)).text()).match(new RegExp(`^${name} (\\d+)`, 'm'))[1]);
const counters = async (base) => ({
  hits: await metric(base, 'textedge_prompt_cache_hits_total'),
  reused: await metric(base, 'textedge_prompt_cache_reused_bytes_total'),
  bytes: await metric(base, 'textedge_prompt_bytes_total'),
});
const tokenize = async (base, messages) =>
  (await (await fetch(`${base}/tokenize`, { method: 'POST', body: JSON.stringify({ messages, add_generation_prompt: true }) })).json()).tokens;

// User turns of many kinds: the text around each added token differs (spaces, newlines, emoji,
// CJK, code), so the cache's boundaries fall in many places.
const USER_TURNS = [
  'Hello! Can you help me plan a trip?',
  '  I want to see Kyōto, 東京 and 大阪 in spring 🌸🌸 — maybe 10 days?',
  'What about food?\n\n- ramen\n- sushi\n- お好み焼き',
  '```python\nfor day in range(10):\n    print(f"day {day}")\n```\nDoes this loop look right?',
  'ภาษาไทย ก็ได้ไหม 👩‍👩‍👧‍👦 ',
  '\n\n\n',
  'Ok. Summarize everything   ',
  'x'.repeat(3000),
  'Thanks! 🙏🏽',
];

for (const model of ['qwen3', 'llama3_1']) {
  describe(`prompt cache, ${model}`, () => {
    let cached, whole;
    before(async () => {
      const args = ['-m', path.join(ROOT, 'models', model), '--engine', `scripted:${SCRIPT}`, '--no-request-log'];
      cached = await startServe(args);
      whole = await startServe([...args, '--prompt-cache', '0']);
    });
    after(async () => {
      if (cached) await stop(cached.child);
      if (whole) await stop(whole.child);
    });

    it('a conversation turn by turn: ids equal a whole encode, and each turn reuses the one before', async () => {
      const openai = client(cached.base);
      const messages = [{ role: 'system', content: 'You are a helpful travel agent. Answer briefly.' }];
      let previousBytes = 0;
      for (const [turn, content] of USER_TURNS.entries()) {
        messages.push({ role: 'user', content });
        const before = await counters(cached.base);
        const res = await openai.chat.completions.create({ model, messages });
        const after = await counters(cached.base);
        const ids = await tokenize(whole.base, messages);
        assert.equal(res.usage.prompt_tokens, ids.length, `turn ${turn}`);
        assert.deepEqual(await tokenize(cached.base, messages), ids, `turn ${turn}`);
        const bytes = after.bytes - before.bytes;
        if (turn > 0) {
          assert.equal(after.hits - before.hits, 1, `turn ${turn}`);
          // Everything of the last prompt but its open assistant header comes from the cache.
          assert.ok(after.reused - before.reused > previousBytes - 64, `turn ${turn}: reused ${after.reused - before.reused} of ${previousBytes}`);
        }
        previousBytes = bytes;
        messages.push({ role: 'assistant', content: res.choices[0].message.content });
      }
      assert.equal((await counters(whole.base)).hits, 0);
    });

    it('conversations that share a system prompt keep their own entries', async () => {
      const openai = client(cached.base);
      const system = { role: 'system', content: 'You are terse. 🤖' };
      const talks = [[system], [system], [system]];
      const last = [0, 0, 0];
      for (let turn = 0; turn < 4; ++turn) {
        for (const [k, messages] of talks.entries()) {
          messages.push({ role: 'user', content: `conversation ${k}, turn ${turn}: ${'more words '.repeat(20 * (k + 1))}` });
          const before = await counters(cached.base);
          const res = await openai.chat.completions.create({ model, messages });
          const after = await counters(cached.base);
          assert.equal(res.usage.prompt_tokens, (await tokenize(whole.base, messages)).length);
          if (turn > 0) assert.ok(after.reused - before.reused > last[k] - 64, `conversation ${k} turn ${turn}`);
          last[k] = after.bytes - before.bytes;
          messages.push({ role: 'assistant', content: res.choices[0].message.content });
        }
      }
    });
  });
}
