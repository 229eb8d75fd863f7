// The type of bench/seeded-random.js, for the TypeScript that imports it (the demo and the tests).
export function seededRandom(seed: number): () => number;
