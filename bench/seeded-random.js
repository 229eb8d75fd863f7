// The one seeded PRNG of the repository, for the benchmark's members and load, the demo's
// crowd and the randomised tests: plain JavaScript, so the benchmark page loads it as it is
// (bench/server.js) and Node, Vite and the tests import the same file.

/** mulberry32: small, fast and the same everywhere. The same seed gives the same numbers in [0, 1). */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
