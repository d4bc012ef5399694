// The reference, live: encodes JSON-string lines from stdin with Hugging Face tokenizers and
// prints one JSON id array per line. Usage: node encode.js MODEL_DIR [--add-special-tokens]
const path = require('path');
const { Tokenizer } = require('tokenizers');

async function main() {
  const [modelDir, ...flags] = process.argv.slice(2);
  const addSpecialTokens = flags.includes('--add-special-tokens');
  const tok = Tokenizer.fromFile(path.join(modelDir, 'tokenizer.json'));
  const input = require('fs').readFileSync(0, 'utf8');
  const out = [];
  for (const line of input.split('\n')) {
    if (!line) continue;
    const enc = await tok.encode(JSON.parse(line), null, { addSpecialTokens });
    out.push(JSON.stringify(enc.getIds()));
  }
  process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
}
main().catch((e) => { console.error(e); process.exit(1); });
