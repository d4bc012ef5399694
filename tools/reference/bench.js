#!/usr/bin/env node
// Measures the reference (Hugging Face tokenizers through its Node binding) on one model and
// one text file, the way `textedge bench` measures textedge:
//   load time of tokenizer.json (Tokenizer.fromFile): the best of five loads (load_ms), as
//     `textedge bench` times its own, and the process's first (first_load_ms);
//   encode throughput: encodeBatch over ~4 KB chunks of FILE (cut after the first newline
//     past 4096 bytes, as the CLI does), one first pass (timed apart: first_MBps, the caches
//     cold), then repeated until >= MIN_SECONDS;
//   decode throughput: decodeBatch of those chunks' ids, the same way.
// The outputs of the first pass are reported as digests (tools/reference/bench_common.js),
// which textedge's `bench encode` and `bench decode` print too, so the script can check that both
// sides produced the same ids and the same text.
// Run it single-threaded for a fair per-core comparison: RAYON_NUM_THREADS=1 (and
// TOKENIZERS_PARALLELISM=false), which scripts/bench_compare.sh sets.
//
//   node tools/reference/bench.js MODEL_DIR FILE [--min-seconds S] [--add-special-tokens]
//
// Prints one JSON line: {"model", "bytes", "load_ms", "first_load_ms", "encode": {"MBps", "first_MBps", "tokens", "ids_fnv1a64",
// "seconds", "rounds"}, "decode": {"MBps", "bytes", "text_fnv1a64", "tokens", "seconds", "rounds"}}
// where "seconds" is the time of one pass over the whole file.
'use strict';

const fs = require('fs');
const path = require('path');
const { Tokenizer } = require('./node_modules/tokenizers');
const { chunkText, idsDigest, textDigest } = require('./bench_common');

// The caller's first pass, whose output is reported, is the warm-up (one pass, as in textedge).
async function timeRepeated(minSeconds, fn) {
  let rounds = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  do {
    await fn();
    rounds++;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  } while (elapsed < minSeconds);
  return { seconds: elapsed / rounds, rounds };
}

async function main() {
  const args = process.argv.slice(2);
  const positional = [];
  let minSeconds = 1;
  let addSpecialTokens = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--min-seconds') minSeconds = Number(args[++i]);
    else if (args[i] === '--add-special-tokens') addSpecialTokens = true;
    else positional.push(args[i]);
  }
  const [modelDir, file] = positional;
  if (!modelDir || !file || !(minSeconds > 0)) {
    console.error('usage: node bench.js MODEL_DIR FILE [--min-seconds S] [--add-special-tokens]');
    process.exit(2);
  }
  const buf = fs.readFileSync(file);
  const chunks = chunkText(buf);

  const loadOnce = () => {
    const t0 = process.hrtime.bigint();
    const loaded = Tokenizer.fromFile(path.join(modelDir, 'tokenizer.json'));
    return [loaded, Number(process.hrtime.bigint() - t0) / 1e6];
  };
  let [tok, firstLoadMs] = loadOnce();
  let loadMs = firstLoadMs;
  for (let i = 1; i < 5; i++) {
    tok = null;
    const [loaded, ms] = loadOnce();
    tok = loaded;
    loadMs = Math.min(loadMs, ms);
  }

  const options = { addSpecialTokens };
  const t1 = process.hrtime.bigint();
  const encodings = await tok.encodeBatch(chunks, options);
  const firstSeconds = Number(process.hrtime.bigint() - t1) / 1e9;
  const ids = encodings.map((e) => e.getIds());
  const tokens = ids.reduce((n, x) => n + x.length, 0);
  const enc = await timeRepeated(minSeconds, () => tok.encodeBatch(chunks, options));

  const decoded = await tok.decodeBatch(ids, false);
  const decodedBytes = decoded.reduce((n, s) => n + Buffer.byteLength(s, 'utf8'), 0);
  const dec = await timeRepeated(minSeconds, () => tok.decodeBatch(ids, false));

  const round = (x, d) => Number(x.toFixed(d));
  process.stdout.write(JSON.stringify({
    model: path.basename(path.resolve(modelDir)),
    bytes: buf.length,
    chunks: chunks.length,
    load_ms: round(loadMs, 1),
    first_load_ms: round(firstLoadMs, 1),
    encode: { MBps: round(buf.length / enc.seconds / 1e6, 2), first_MBps: round(buf.length / firstSeconds / 1e6, 2), tokens, ids_fnv1a64: idsDigest(ids),
      seconds: round(enc.seconds, 6), rounds: enc.rounds },
    decode: { MBps: round(decodedBytes / dec.seconds / 1e6, 2), bytes: decodedBytes, text_fnv1a64: textDigest(decoded),
      tokens, seconds: round(dec.seconds, 6), rounds: dec.rounds },
    threads: process.env.RAYON_NUM_THREADS || 'default',
  }) + '\n');
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err);
  process.exit(1);
});
