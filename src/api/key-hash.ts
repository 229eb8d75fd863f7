// SHA-256, written out: API keys are kept and compared as their hashes, and
// the handler runs where crypto.subtle is missing (the in-page transport on an
// http: page, which is not a secure context), so it cannot wait for it there.
// Synchronous, so comparing a key costs no extra turn of a transaction.

// FIPS 180-4's constants (4.2.2, 5.3.3) are the first 32 bits of the fractional parts of the
// square roots (the initial hash: first 8 primes) and cube roots (the round constants: first 64
// primes): computed, not written out, for a smaller bundle. Each root lies at least 2^11 units in
// the last place away from where its 32 bits would change, so no engine's rounding of Math.sqrt
// or Math.cbrt (a unit or two) alters one; the known digests in test/api/key-hash.test.ts check it.
/* @__NO_SIDE_EFFECTS__ */
function fractionWordsOfRoots(root: (prime: number) => number, count: number): number[] {
  const primes: number[] = [];
  for (let candidate = 2; primes.length < count; candidate++) {
    if (primes.every((prime) => candidate % prime !== 0)) primes.push(candidate);
  }
  return primes.map((prime) => ((root(prime) % 1) * 2 ** 32) >>> 0);
}

const ROUND_CONSTANTS = new Uint32Array(fractionWordsOfRoots(Math.cbrt, 64));
const INITIAL_HASH = fractionWordsOfRoots(Math.sqrt, 8);

const rotateRight = (word: number, bits: number) => (word >>> bits) | (word << (32 - bits));

/** A SHA-256 as sha256Hex writes it. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The SHA-256 of the text's UTF-8 bytes, as 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  // The message, a 1 bit, zeros, and its length in bits (64 bits, big-endian), in whole 64-byte blocks.
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bytes.length / 0x20000000));
  view.setUint32(padded.length - 4, (bytes.length * 8) >>> 0);

  const hash = [...INITIAL_HASH];
  const schedule = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let t = 0; t < 16; t++) schedule[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 64; t++) {
      const w15 = schedule[t - 15]!;
      const w2 = schedule[t - 2]!;
      const s0 = rotateRight(w15, 7) ^ rotateRight(w15, 18) ^ (w15 >>> 3);
      const s1 = rotateRight(w2, 17) ^ rotateRight(w2, 19) ^ (w2 >>> 10);
      schedule[t] = schedule[t - 16]! + s0 + schedule[t - 7]! + s1;
    }
    let [a, b, c, d, e, f, g, h] = hash as [number, number, number, number, number, number, number, number];
    for (let t = 0; t < 64; t++) {
      const choose = (e & f) ^ (~e & g);
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const t1 =
        (h + (rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)) + choose + ROUND_CONSTANTS[t]! + schedule[t]!) | 0;
      const t2 = ((rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)) + majority) | 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
    }
    [a, b, c, d, e, f, g, h].forEach((word, index) => (hash[index] = (hash[index]! + word) | 0));
  }
  return hash.map((word) => (word >>> 0).toString(16).padStart(8, '0')).join('');
}
