#!/usr/bin/env node
// Writes the streaming-decode goldens of one model from the reference (Hugging Face
// tokenizers' decode), for tests/streaming/detokenizer_test.cpp.
//
//   node tools/reference/stream_goldens.js MODEL_DIR OUT.jsonl CORPUS.jsonl...
//
// OUT.jsonl: {"meta"} first, {"end": {"cases": N}} last, and between them one case per line:
//   {"cat", "prompt": [ids], "ids": [generated ids], "cuts": [k...],
//    "decode": [[d, d_skip] for each cut k: decode(prompt + ids[0:k])],
//    "prompt_decode": [d, d_skip]}
// Cases: real text (encoded, with and without special tokens, cut into prompt and
// generation at random), fixtures that are hard for streaming (ZWJ emoji, Fraktur, Burmese,
// a chili pepper after "URGENCY", invalid bytes) spelled token by token and byte by byte, and
// random ids rich in byte tokens, special tokens and out-of-range ids. Deterministic.
'use strict';

const fs = require('fs');
const path = require('path');
const { Tokenizer } = require('./node_modules/tokenizers');
const { mulberry32, hashString, Writer, idPools, readCorpus } = require('./goldens.js');

const FIXTURES = [
  'The astronaut 👩🏽‍🚀 waved; family: 👨‍👩‍👧‍👦, flag 🏳️‍🌈.',
  'Fraktur: 𝔗𝔥𝔢 𝔮𝔲𝔦𝔠𝔨 𝔟𝔯𝔬𝔴𝔫 𝔣𝔬𝔵 and 𝕯𝖔𝖚𝖇𝖑𝖊.',
  'မြန်မာဘာသာစကားသည် တိဘက်-မြန်မာ ဘာသာစကားမိသားစုဝင် ဖြစ်သည်။',
  'URGENCY🌶️ now! Hot 🌶🌶🌶 and done.',
  '日本語のテキストと中文文本，한국어 텍스트.',
  '  leading spaces, trailing spaces   ',
  ' ',
];

function sample(rand, arr) {
  return arr[Math.floor(rand() * arr.length)];
}

function pickCuts(rand, n) {
  if (n <= 40) return Array.from({ length: n + 1 }, (_, k) => k);
  const cuts = new Set([0, 1, 2, n - 1, n]);
  while (cuts.size < 24) cuts.add(Math.floor(rand() * (n + 1)));
  return [...cuts].sort((a, b) => a - b);
}

async function main() {
  const [modelDir, outFile, ...corpusFiles] = process.argv.slice(2);
  const model = path.basename(modelDir);
  const tokJson = JSON.parse(fs.readFileSync(path.join(modelDir, 'tokenizer.json'), 'utf8'));
  const tok = Tokenizer.fromFile(path.join(modelDir, 'tokenizer.json'));
  const rand = mulberry32(hashString(model) ^ 0x5eed5);
  const pools = idPools(tok, tokJson);
  const byteIds = pools.bytes.filter((x) => x !== undefined);
  const bytesOf = (text) => [...Buffer.from(text, 'utf8')].map((b) => pools.bytes[b]).filter((x) => x !== undefined);

  const sequences = [];  // {cat, ids}
  // Real text: a few lines of every corpus category.
  const byCat = new Map();
  for (const c of readCorpus(corpusFiles)) {
    if (!byCat.has(c.cat)) byCat.set(c.cat, []);
    byCat.get(c.cat).push(c.text);
  }
  for (const [cat, texts] of byCat) {
    for (let k = 0; k < 3 && k < texts.length; k++) {
      const text = sample(rand, texts).slice(0, 600);
      try {
        const enc = await tok.encode(text, null, { addSpecialTokens: rand() < 0.5 });
        sequences.push({ cat, ids: enc.getIds().slice(0, 300) });
      } catch (_) { /* texts the reference refuses are covered elsewhere */ }
    }
  }
  // Fixtures, as the tokenizer spells them and byte by byte.
  for (const text of FIXTURES) {
    sequences.push({ cat: 'fixture', ids: (await tok.encode(text, null, { addSpecialTokens: false })).getIds() });
    sequences.push({ cat: 'fixture_bytes', ids: bytesOf(text) });
  }
  // Invalid byte sequences in the middle of text.
  const word = (await tok.encode(' hello', null, { addSpecialTokens: false })).getIds();
  for (const bad of [[0xff], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0x80, 0x80], [0xf4, 0x90]]) {
    sequences.push({ cat: 'invalid_bytes', ids: [...word, ...bad.map((b) => pools.bytes[b]).filter((x) => x !== undefined), ...word, ...bytesOf('é'), ...word] });
  }
  // Random ids.
  for (let k = 0; k < 40; k++) {
    const n = 1 + Math.floor(rand() * 120);
    const ids = [];
    for (let i = 0; i < n; i++) {
      const r = rand();
      if (r < 0.45 && byteIds.length) ids.push(sample(rand, byteIds));
      else if (r < 0.55 && pools.special.length) ids.push(sample(rand, pools.special));
      else if (r < 0.6 && pools.nonSpecial.length) ids.push(sample(rand, pools.nonSpecial));
      else if (r < 0.63) ids.push(pools.maxId + 1 + Math.floor(rand() * 1000));
      else ids.push(Math.floor(rand() * (pools.maxId + 1)));
    }
    sequences.push({ cat: 'random', ids });
  }

  const w = new Writer(outFile + '.tmp');
  w.line({ meta: { model, reference: require('./node_modules/tokenizers/package.json').version } });
  let cases = 0;
  for (const { cat, ids: all } of sequences) {
    if (all.length === 0) continue;
    const split = rand() < 0.3 ? 0 : Math.floor(rand() * all.length);
    const prompt = all.slice(0, split);
    const ids = all.slice(split);
    const cuts = pickCuts(rand, ids.length);
    const lists = [prompt, ...cuts.map((k) => prompt.concat(ids.slice(0, k)))];
    const plain = await tok.decodeBatch(lists, false);
    const skipped = await tok.decodeBatch(lists, true);
    w.line({ cat, prompt, ids, cuts, prompt_decode: [plain[0], skipped[0]],
      decode: cuts.map((_, i) => [plain[i + 1], skipped[i + 1]]) });
    cases++;
  }
  w.line({ end: { cases } });
  w.close();
  fs.renameSync(outFile + '.tmp', outFile);
  console.error(`stream goldens: ${model}: ${cases} cases`);
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err);
  process.exit(1);
});
