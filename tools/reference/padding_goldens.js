#!/usr/bin/env node
// Truncation and padding as transformers' fast tokenizers do them (transformers sets the Rust
// tokenizer's truncation and padding from __call__'s arguments, then encodes the batch), from the
// reference (Hugging Face tokenizers through its Node binding), for
// tests/python/test_compat_padding.py.
//
//   node tools/reference/padding_goldens.js OUT.jsonl MODEL_DIR...
//
// OUT.jsonl: one line per case {"model", "texts", "add_special_tokens", "truncation": null |
// {"max_length", "side"}, "padding": null | {"length": null | N, "multiple_of": null | N, "side"},
// "pad_token", "input_ids", "attention_mask"} (or "error" instead of the last two when the
// reference refuses), then {"end": {"cases": N}}. Padding cases exist only for models whose
// tokenizer_config.json names a pad_token (transformers refuses to pad without one).
'use strict';

const fs = require('fs');
const path = require('path');
const { Tokenizer } = require('./node_modules/tokenizers');

const TEXTS = [
  'Hello world',
  'The quick brown fox jumps over the lazy dog, again and again, until the dog wakes up.',
  'Grüße aus Köln! 東京は雨です。 Привет, мир! 🎉👩‍💻',
  'def f(x):\n    return x ** 2  # squares\n',
  '',
];

function padTokenOf(modelDir) {
  const configPath = path.join(modelDir, 'tokenizer_config.json');
  if (!fs.existsSync(configPath)) return null;
  const pad = JSON.parse(fs.readFileSync(configPath, 'utf8')).pad_token;
  if (pad && typeof pad === 'object') return pad.content ?? null;
  return typeof pad === 'string' ? pad : null;
}

async function encodeAll(tok, texts, addSpecialTokens) {
  const encodings = await tok.encodeBatch(texts, { addSpecialTokens });
  return { input_ids: encodings.map((e) => Array.from(e.getIds())), attention_mask: encodings.map((e) => Array.from(e.getAttentionMask())) };
}

async function main() {
  const [out, ...modelDirs] = process.argv.slice(2);
  const lines = [];
  for (const modelDir of modelDirs) {
    const model = path.basename(modelDir);
    const tok = Tokenizer.fromFile(path.join(modelDir, 'tokenizer.json'));
    const padToken = padTokenOf(modelDir);
    const padId = padToken === null ? null : tok.tokenToId(padToken);
    const cases = [];
    for (const addSpecialTokens of [true, false])
      for (const maxLength of [1, 2, 5, 12, 100])
        for (const side of ['right', 'left']) cases.push({ addSpecialTokens, truncation: { max_length: maxLength, side }, padding: null });
    if (padId !== null && padId !== undefined) {
      for (const side of ['right', 'left']) {
        cases.push({ addSpecialTokens: true, truncation: null, padding: { length: null, multiple_of: null, side } });
        cases.push({ addSpecialTokens: true, truncation: null, padding: { length: 40, multiple_of: null, side } });
        cases.push({ addSpecialTokens: true, truncation: null, padding: { length: null, multiple_of: 8, side } });
        cases.push({ addSpecialTokens: false, truncation: null, padding: { length: 30, multiple_of: 8, side } });
        cases.push({ addSpecialTokens: true, truncation: { max_length: 10, side: 'right' }, padding: { length: 10, multiple_of: null, side } });
        cases.push({ addSpecialTokens: true, truncation: { max_length: 7, side: 'left' }, padding: { length: null, multiple_of: null, side } });
      }
    }
    for (const c of cases) {
      if (c.truncation) tok.setTruncation(c.truncation.max_length, { direction: c.truncation.side, strategy: 'LongestFirst' });
      else tok.disableTruncation();
      if (c.padding) {
        const options = { direction: c.padding.side, padId, padToken };
        if (c.padding.length !== null) options.maxLength = c.padding.length;
        if (c.padding.multiple_of !== null) options.padToMultipleOf = c.padding.multiple_of;
        tok.setPadding(options);
      } else {
        tok.disablePadding();
      }
      const line = { model, texts: TEXTS, add_special_tokens: c.addSpecialTokens, truncation: c.truncation, padding: c.padding, pad_token: padToken };
      try {
        Object.assign(line, await encodeAll(tok, TEXTS, c.addSpecialTokens));
      } catch (e) {
        line.error = String(e.message || e);
      }
      lines.push(JSON.stringify(line));
    }
  }
  lines.push(JSON.stringify({ end: { cases: lines.length } }));
  fs.writeFileSync(out + '.tmp', lines.join('\n') + '\n');
  fs.renameSync(out + '.tmp', out);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
