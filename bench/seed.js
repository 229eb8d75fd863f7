// Seeding an app of the benchmark through POST /v1/admin/import in merge-mode
// chunks, shared by the browser benchmark and the server benchmark: each
// sends a chunk its own way (`importChunk`), this decides the chunks.

/** Members in the first chunk; a chunk refused as too large (413) is halved. */
export const FIRST_CHUNK_MEMBERS = 5000;
const SMALLEST_CHUNK_MEMBERS = 25;

/**
 * Imports members [0, size) through `importChunk({ start, end }) → { status }`,
 * one chunk after the other, logging each tenth. Returns the seconds it took
 * and the number of import requests.
 */
export async function seedInChunks({ size, importChunk, firstChunk = FIRST_CHUNK_MEMBERS, log = console.log }) {
  const started = performance.now();
  let chunk = firstChunk;
  let start = 0;
  let requests = 0;
  let nextTenth = 1;
  while (start < size) {
    const end = Math.min(size, start + chunk);
    const { status } = await importChunk({ start, end });
    requests += 1;
    if (status === 413) {
      if (chunk <= SMALLEST_CHUNK_MEMBERS) throw new Error(`an import of ${chunk} members is refused as too large`);
      chunk = Math.max(SMALLEST_CHUNK_MEMBERS, Math.floor(chunk / 2));
      continue;
    }
    start = end;
    if (start * 10 >= nextTenth * size) {
      const seconds = (performance.now() - started) / 1000;
      log(
        `  seeded ${start.toLocaleString('en-US')} / ${size.toLocaleString('en-US')} members (${seconds.toFixed(1)} s, ${chunk} per import)`,
      );
      nextTenth = Math.floor((start * 10) / size) + 1;
    }
  }
  return { importSeconds: (performance.now() - started) / 1000, importRequests: requests };
}
