// The embed promises to add nothing to the page but window.Questboard. Its libraries leave
// globals behind: Lit its version lists and decorator metadata (read only while elements are
// defined, which the embed does at once), zod its config (read with optional chaining). This
// module is imported first, so it sees which of them the page had before; the embed removes
// the others once it has defined its elements and again once it has loaded the in-page server
// or an element loaded on demand (which needs Lit's again while it is defined).
const LIBRARY_GLOBALS = [
  'litHtmlVersions',
  'litElementVersions',
  'reactiveElementVersions',
  'litPropertyMetadata',
  '__zod_globalConfig',
] as const;

const presentBefore = new Set<string>(LIBRARY_GLOBALS.filter((name) => name in globalThis));

const globals = globalThis as Record<string, unknown>;
/** What the embed removed, to give back while an element loaded later is defined. */
const removed = new Map<string, unknown>();
let lending = 0;

export function removeLibraryGlobals(): void {
  if (lending > 0) return;
  for (const name of LIBRARY_GLOBALS) {
    if (presentBefore.has(name) || !(name in globals)) continue;
    removed.set(name, globals[name]);
    delete globals[name];
  }
}

/** Runs `load` with the libraries' globals back in place (Lit reads its metadata while an element is defined). */
export async function withLibraryGlobals<T>(load: () => Promise<T>): Promise<T> {
  for (const [name, value] of removed) globals[name] = value;
  lending += 1;
  try {
    return await load();
  } finally {
    lending -= 1;
    removeLibraryGlobals();
  }
}
