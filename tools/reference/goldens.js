#!/usr/bin/env node
// Writes the golden expectations of one model from the reference (Hugging Face tokenizers
// through its Node binding), for tests/tokenizer/reference_test.cpp.
//
//   node tools/reference/goldens.js MODEL_DIR OUT.jsonl CORPUS.jsonl...
//
// OUT.jsonl holds one JSON object per line:
//   {"meta": {...}}                                   first line: model, reference version
//   {"cat", "text", "ids", "decode": [d, d_skip]}      an encode case: ids with
//       addSpecialTokens false, and decode(ids, false / true); when addSpecialTokens true
//       gives other ids, also "ids_special" and "decode_special": [d, d_skip] of those.
//       If the reference throws, "error" holds its message instead of ids.
//   {"cat", "decode_ids", "decode": [d, d_skip]}      a decode-only case (ids that cut
//       characters in half, random ids, out-of-range ids, special and added tokens).
//   {"end": {"cases": N, ...}}                         last line: proves the file is complete.
// Everything is deterministic (seeded per model), so regenerating gives the same file.
'use strict';

const fs = require('fs');
const path = require('path');
const { Tokenizer } = require('./node_modules/tokenizers');

const BATCH = 128;
const SEED = 0x7e57ed6e;

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashString(s) {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.codePointAt(0), 16777619) >>> 0;
  return h;
}

function sameIds(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

class Writer {
  constructor(file) {
    this.fd = fs.openSync(file, 'w');
    this.parts = [];
    this.size = 0;
  }
  line(obj) {
    const s = JSON.stringify(obj) + '\n';
    this.parts.push(s);
    this.size += s.length;
    if (this.size > 1 << 22) this.flush();
  }
  flush() {
    if (this.parts.length) fs.writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
  close() {
    this.flush();
    fs.closeSync(this.fd);
  }
}

async function encodeAll(tok, texts, addSpecialTokens) {
  try {
    const encs = await tok.encodeBatch(texts, { addSpecialTokens });
    return encs.map((e) => ({ ids: e.getIds() }));
  } catch (_) {
    // Find which texts fail, one at a time, so the others still get goldens.
    const out = [];
    for (const t of texts) {
      try {
        out.push({ ids: (await tok.encode(t, null, { addSpecialTokens })).getIds() });
      } catch (err) {
        out.push({ error: String(err && err.message ? err.message : err) });
      }
    }
    return out;
  }
}

async function decodeBoth(tok, idLists) {
  const plain = await tok.decodeBatch(idLists, false);
  const skipped = await tok.decodeBatch(idLists, true);
  return plain.map((d, i) => [d, skipped[i]]);
}

function readCorpus(files) {
  const cases = [];
  for (const file of files) {
    const cat = path.basename(file).replace(/\.jsonl$/, '');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    for (const line of lines) if (line.length) cases.push({ cat, text: JSON.parse(line) });
  }
  return cases;
}

// Ids the decode-only cases draw from.
function idPools(tok, json) {
  const added = json.added_tokens || [];
  const special = added.filter((t) => t.special).map((t) => t.id);
  const nonSpecial = added.filter((t) => !t.special).map((t) => t.id);
  let maxId = 0;
  for (const id of Object.values(json.model.vocab)) if (id > maxId) maxId = id;
  for (const t of added) if (t.id > maxId) maxId = t.id;
  // Byte tokens: <0xXX> for byte-fallback models, the 256 byte characters for byte-level ones.
  const bytes = [];
  for (let b = 0; b < 256; b++) {
    const hex = '<0x' + b.toString(16).toUpperCase().padStart(2, '0') + '>';
    const id = tok.tokenToId(hex);
    if (id !== null && id !== undefined) bytes[b] = id;
  }
  if (bytes.length === 0) {
    // GPT-2 byte-to-character map: printable bytes map to themselves, the rest from U+0100.
    let n = 0;
    for (let b = 0; b < 256; b++) {
      const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
      const ch = printable ? String.fromCodePoint(b) : String.fromCodePoint(256 + n++);
      const id = tok.tokenToId(ch);
      if (id !== null && id !== undefined) bytes[b] = id;
    }
  }
  return { special, nonSpecial, maxId, bytes };
}

function utf8Bytes(rand, valid) {
  // A few characters' worth of bytes; when !valid, cut or corrupted on purpose.
  const cps = [0x41, 0xe9, 0x4e2d, 0x1f600, 0x20ac, 0x10ffff, 0x0301, 0x0e01];
  const out = [];
  const n = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < n; i++) out.push(...Buffer.from(String.fromCodePoint(cps[Math.floor(rand() * cps.length)]), 'utf8'));
  if (!valid) {
    const r = Math.floor(rand() * 5);
    if (r === 0) out.pop();
    else if (r === 1) out.shift();
    else if (r === 2) out.splice(Math.floor(rand() * out.length), 0, 0x80 + Math.floor(rand() * 64));
    else if (r === 3) out.push(0xc0 + Math.floor(rand() * 64));
    else out.push([0xff, 0xfe, 0xc0, 0xc1, 0xf5, 0xed, 0xa0][Math.floor(rand() * 7)]);
  }
  return out;
}

function decodeCases(rand, encCases, pools) {
  const pick = (arr) => arr[Math.floor(rand() * arr.length)];
  const randInt = (n) => Math.floor(rand() * n);
  const out = [];
  const withIds = encCases.filter((c) => c.ids && c.ids.length > 1);
  // Slices of real encodings: prefixes, suffixes and middles, mostly cutting a character.
  const nonAscii = withIds.filter((c) => /[^\x00-\x7f]/.test(c.text));
  for (let i = 0; i < 1500 && withIds.length; i++) {
    const c = pick(rand() < 0.8 && nonAscii.length ? nonAscii : withIds);
    const ids = rand() < 0.5 || !c.ids_special ? c.ids : c.ids_special;
    const n = ids.length;
    const r = randInt(4);
    let a, b;
    if (r === 0) { a = 0; b = 1 + randInt(Math.min(n - 1, 200)); }
    else if (r === 1) { b = n; a = Math.max(1, n - 1 - randInt(200)); }
    else if (r === 2) { a = randInt(n); b = Math.min(n, a + 1 + randInt(60)); }
    else { a = randInt(n); b = a + 1; }
    out.push({ cat: 'decode_slices', decode_ids: ids.slice(a, b) });
  }
  // Real encodings with special and added tokens spliced in at random places.
  const extraIds = pools.special.concat(pools.nonSpecial);
  for (let i = 0; i < 300 && withIds.length && extraIds.length; i++) {
    const ids = pick(withIds).ids.slice(0, 80);
    for (let k = 1 + randInt(4); k > 0; k--) ids.splice(randInt(ids.length + 1), 0, pick(extraIds));
    out.push({ cat: 'decode_spliced', decode_ids: ids });
  }
  // Random ids: anywhere in the vocabulary, special, added, out of range, byte tokens.
  const byteIds = pools.bytes.filter((x) => x !== undefined);
  const idOfByte = (b) => pools.bytes[b];
  for (let i = 0; i < 1000; i++) {
    const len = i === 0 ? 0 : 1 + randInt(i < 200 ? 3 : 40);
    const ids = [];
    while (ids.length < len) {
      const r = randInt(12);
      if (r < 5) ids.push(randInt(pools.maxId + 1));
      else if (r === 5 && pools.special.length) ids.push(pick(pools.special));
      else if (r === 6 && pools.nonSpecial.length) ids.push(pick(pools.nonSpecial));
      else if (r === 7) ids.push(pick([pools.maxId + 1, pools.maxId + 1 + randInt(1000), 2 ** 31, 2 ** 32 - 1, 1e6]));
      else if (r === 8 && byteIds.length) ids.push(pick(byteIds));
      else if (r === 9 && byteIds.length === 256) {
        for (const b of utf8Bytes(rand, rand() < 0.5)) ids.push(idOfByte(b));
      } else ids.push(randInt(Math.min(pools.maxId + 1, 1000)));
    }
    out.push({ cat: 'decode_random', decode_ids: ids });
  }
  return out;
}

async function main() {
  const [modelDir, outFile, ...corpusFiles] = process.argv.slice(2);
  if (!modelDir || !outFile || corpusFiles.length === 0) {
    console.error('usage: node goldens.js MODEL_DIR OUT.jsonl CORPUS.jsonl...');
    process.exit(2);
  }
  const model = path.basename(path.resolve(modelDir));
  const jsonFile = path.join(modelDir, 'tokenizer.json');
  const started = Date.now();
  const tok = Tokenizer.fromFile(jsonFile);
  const json = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
  const version = require('./node_modules/tokenizers/package.json').version;

  const cases = readCorpus(corpusFiles.slice().sort());
  const tmp = outFile + '.tmp';
  const w = new Writer(tmp);
  w.line({ meta: { model, reference: 'tokenizers ' + version, corpus_files: corpusFiles.map((f) => path.basename(f)).sort() } });

  let roundTripFailures = 0;
  let errors = 0;
  for (let i = 0; i < cases.length; i += BATCH) {
    const batch = cases.slice(i, i + BATCH);
    const texts = batch.map((c) => c.text);
    const plain = await encodeAll(tok, texts, false);
    const withSpecial = await encodeAll(tok, texts, true);
    const ok = batch.map((_, k) => !plain[k].error && !withSpecial[k].error);
    const decPlain = await decodeBoth(tok, batch.map((_, k) => (ok[k] ? plain[k].ids : [])));
    const decSpecial = await decodeBoth(tok, batch.map((_, k) => (ok[k] ? withSpecial[k].ids : [])));
    batch.forEach((c, k) => {
      if (!ok[k]) {
        errors++;
        w.line({ cat: c.cat, text: c.text, error: plain[k].error || withSpecial[k].error });
        return;
      }
      c.ids = plain[k].ids;
      const rec = { cat: c.cat, text: c.text, ids: c.ids, decode: decPlain[k] };
      if (!sameIds(plain[k].ids, withSpecial[k].ids)) {
        c.ids_special = withSpecial[k].ids;
        rec.ids_special = c.ids_special;
        rec.decode_special = decSpecial[k];
      }
      if (decPlain[k][0] !== c.text) roundTripFailures++;
      w.line(rec);
    });
  }

  const rand = mulberry32(SEED ^ hashString(model));
  const dec = decodeCases(rand, cases, idPools(tok, json));
  for (let i = 0; i < dec.length; i += BATCH) {
    const batch = dec.slice(i, i + BATCH);
    const d = await decodeBoth(tok, batch.map((c) => c.decode_ids));
    batch.forEach((c, k) => w.line({ cat: c.cat, decode_ids: c.decode_ids, decode: d[k] }));
  }

  const end = { cases: cases.length + dec.length, encode_cases: cases.length, decode_cases: dec.length,
    encode_errors: errors, round_trip_failures: roundTripFailures };
  w.line({ end });
  w.close();
  fs.renameSync(tmp, outFile);
  console.error(`goldens: ${model}: ${cases.length} encode + ${dec.length} decode cases, ` +
    `${roundTripFailures} not round-tripping, ${errors} errors, ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

module.exports = { mulberry32, hashString, Writer, idPools, readCorpus };

if (require.main === module) {
  main().catch((err) => {
    console.error(err && err.stack ? err.stack : err);
    process.exit(1);
  });
}
