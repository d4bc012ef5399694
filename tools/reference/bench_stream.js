#!/usr/bin/env node
// Measures streaming detokenization the way vLLM's slow path does it, on the reference
// (Hugging Face tokenizers through its Node binding): for every new token, decode a prefix
// window (ids[prefix_offset:read_offset]) and a full window (ids[prefix_offset:]), emit the
// difference unless it ends in U+FFFD, then move the offsets (vLLM's detokenize_incrementally,
// starting 5 tokens back). Two ways to call the reference:
//   "sync":  the tokenizer's Decoder on token strings (idToToken), synchronous, no special-token
//            skipping: the fastest path the binding offers;
//   "async": Tokenizer.decode(ids, skip) per window, as a server calling decode would.
//
//   node tools/reference/bench_stream.js MODEL_DIR FILE [--tokens N] [--min-seconds S]
//
// Prints one JSON line: {"model", "tokens", "sync": {"ns_per_token"}, "async": {"ns_per_token"}}.
'use strict';

const fs = require('fs');
const path = require('path');
const { Tokenizer } = require('./node_modules/tokenizers');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main() {
  const [modelDir, file] = process.argv.slice(2);
  const maxTokens = arg('--tokens', 20000);
  const minSeconds = arg('--min-seconds', 1);
  const tok = Tokenizer.fromFile(path.join(modelDir, 'tokenizer.json'));
  const text = fs.readFileSync(file, 'utf8').slice(0, maxTokens * 6);
  const ids = (await tok.encode(text, null, { addSpecialTokens: false })).getIds().slice(0, maxTokens);
  const decoder = tok.getDecoder();
  const tokens = ids.map((id) => tok.idToToken(id));

  async function timeIt(body, n) {
    let rounds = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0;
    do {
      await body(n);
      rounds++;
      elapsed = Number(process.hrtime.bigint() - start) / 1e9;
    } while (elapsed < minSeconds);
    return (elapsed / rounds / n) * 1e9;
  }

  let sink = 0;
  const sync = (n) => {
    let prefix = 0, read = 0, out = '';
    for (let i = 1; i <= n; i++) {
      const prefixText = decoder.decode(tokens.slice(prefix, read));
      const newText = decoder.decode(tokens.slice(prefix, i));
      if (newText.length > prefixText.length && !newText.endsWith('\uFFFD')) {
        out += newText.slice(prefixText.length);
        prefix = read;
        read = i;
      }
    }
    sink += out.length;
  };
  const asyncWindows = async (n) => {
    let prefix = 0, read = 0, out = '';
    for (let i = 1; i <= n; i++) {
      const prefixText = await tok.decode(ids.slice(prefix, read), false);
      const newText = await tok.decode(ids.slice(prefix, i), false);
      if (newText.length > prefixText.length && !newText.endsWith('\uFFFD')) {
        out += newText.slice(prefixText.length);
        prefix = read;
        read = i;
      }
    }
    sink += out.length;
  };
  const syncNs = await timeIt(sync, ids.length);
  const asyncNs = await timeIt(asyncWindows, Math.min(ids.length, 2000));
  console.log(JSON.stringify({ model: path.basename(modelDir), tokens: ids.length,
    sync: { ns_per_token: Math.round(syncNs) }, async: { ns_per_token: Math.round(asyncNs) }, sink: sink > 0 }));
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err);
  process.exit(1);
});
