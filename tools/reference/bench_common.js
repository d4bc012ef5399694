// What the reference's benchmarks share with `textedge bench` (cli/main.cpp), so that both sides
// time the same input and the scripts can check that both produced the same output:
//   chunkText: FILE cut into ~4 KB chunks after the first newline past 4096 bytes;
//   Fnv1a64: FNV-1a, 64 bits, over bytes. idsDigest hashes each chunk's id count and then its ids,
//     each as 4 little-endian bytes; textDigest hashes UTF-8 bytes.
'use strict';

function chunkText(buf, target = 4096) {
  const chunks = [];
  let start = 0;
  while (start < buf.length) {
    let end = Math.min(buf.length, start + target);
    if (end < buf.length) {
      const nl = buf.indexOf(0x0a, end);
      end = nl < 0 ? buf.length : nl + 1;
    }
    chunks.push(buf.subarray(start, end).toString('utf8'));
    start = end;
  }
  return chunks;
}

// The 64-bit state in four 16-bit limbs, lowest first, so the multiply stays exact in doubles.
class Fnv1a64 {
  constructor() {
    this.h = [0x2325, 0x8422, 0x9ce4, 0xcbf2]; // 0xcbf29ce484222325
  }

  byte(b) {
    const h = this.h;
    h[0] ^= b;
    // h * 0x100000001b3 mod 2^64 = h * 0x1b3 + (h << 40)
    const a0 = h[0] * 0x1b3;
    const a1 = h[1] * 0x1b3 + (a0 >>> 16);
    const a2 = h[2] * 0x1b3 + h[0] * 0x100 + (a1 >>> 16);
    const a3 = h[3] * 0x1b3 + h[1] * 0x100 + (a2 >>> 16);
    h[0] = a0 & 0xffff;
    h[1] = a1 & 0xffff;
    h[2] = a2 & 0xffff;
    h[3] = a3 & 0xffff;
  }

  bytes(buf) {
    for (let i = 0; i < buf.length; i++) this.byte(buf[i]);
  }

  u32(v) {
    for (let i = 0; i < 4; i++) this.byte((v >>> (8 * i)) & 0xff);
  }

  hex() {
    return this.h.slice().reverse().map((x) => x.toString(16).padStart(4, '0')).join('');
  }
}

function idsDigest(chunksOfIds) {
  const f = new Fnv1a64();
  for (const ids of chunksOfIds) {
    f.u32(ids.length);
    for (const id of ids) f.u32(id);
  }
  return f.hex();
}

function textDigest(texts) {
  const f = new Fnv1a64();
  for (const t of texts) f.bytes(Buffer.from(t, 'utf8'));
  return f.hex();
}

module.exports = { chunkText, Fnv1a64, idsDigest, textDigest };
