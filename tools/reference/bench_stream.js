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
// The input is what `textedge bench stream` streams: FILE in ~4 KB chunks (bench_common.js),
// each encoded without special tokens, the ids concatenated and cut at --tokens (default 20000,
// textedge's kStreamTokens). Each way runs once untimed (the warm-up, as textedge's), whose
// streamed text is reported as a digest, then repeatedly until --min-seconds have passed.
//
//   node tools/reference/bench_stream.js MODEL_DIR FILE [--tokens N] [--min-seconds S]
//
// Prints one JSON line: {"model", "tokens", "ids_fnv1a64", "sync": {"ns_per_token", "text_fnv1a64"},
// "async": {"ns_per_token", "text_fnv1a64"}}.
'use strict';

const fs = require('fs');
const path = require('path');
const { Tokenizer } = require('./node_modules/tokenizers');
const { chunkText, idsDigest, textDigest } = require('./bench_common');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main() {
  const [modelDir, file] = process.argv.slice(2);
  const maxTokens = arg('--tokens', 20000);
  const minSeconds = arg('--min-seconds', 1);
  const tok = Tokenizer.fromFile(path.join(modelDir, 'tokenizer.json'));
  let ids = [];
  for (const chunk of chunkText(fs.readFileSync(file))) {
    ids = ids.concat((await tok.encode(chunk, null, { addSpecialTokens: false })).getIds());
    if (ids.length >= maxTokens) break;
  }
  ids = ids.slice(0, maxTokens);
  if (ids.length === 0) throw new Error(`bench_stream: no tokens in ${file}`);
  const decoder = tok.getDecoder();
  const tokens = ids.map((id) => tok.idToToken(id));

  // One untimed pass (its text is the output checked), then passes until minSeconds.
  async function timeIt(body) {
    const text = await body();
    let rounds = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0;
    do {
      await body();
      rounds++;
      elapsed = Number(process.hrtime.bigint() - start) / 1e9;
    } while (elapsed < minSeconds);
    return { ns_per_token: Math.round((elapsed / rounds / ids.length) * 1e9), text_fnv1a64: textDigest([text]) };
  }

  const sync = () => {
    let prefix = 0, read = 0, out = '';
    for (let i = 1; i <= ids.length; i++) {
      const prefixText = decoder.decode(tokens.slice(prefix, read));
      const newText = decoder.decode(tokens.slice(prefix, i));
      if (newText.length > prefixText.length && !newText.endsWith('\uFFFD')) {
        out += newText.slice(prefixText.length);
        prefix = read;
        read = i;
      }
    }
    return out;
  };
  const asyncWindows = async () => {
    let prefix = 0, read = 0, out = '';
    for (let i = 1; i <= ids.length; i++) {
      const prefixText = await tok.decode(ids.slice(prefix, read), false);
      const newText = await tok.decode(ids.slice(prefix, i), false);
      if (newText.length > prefixText.length && !newText.endsWith('\uFFFD')) {
        out += newText.slice(prefixText.length);
        prefix = read;
        read = i;
      }
    }
    return out;
  };
  const syncResult = await timeIt(sync);
  const asyncResult = await timeIt(asyncWindows);
  console.log(JSON.stringify({ model: path.basename(modelDir), tokens: ids.length, ids_fnv1a64: idsDigest([ids]),
    sync: syncResult, async: asyncResult }));
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err);
  process.exit(1);
});
