// The embed promises to add nothing to the page but window.Questboard. Its libraries leave
// globals behind: Lit its version lists and decorator metadata (read only while elements are
// defined, which the embed does at once), zod its config (read with optional chaining). This
// module is imported first, so it sees which of them the page had before; the embed removes
// the others once it has defined its elements and again once it has loaded the in-page server.
const LIBRARY_GLOBALS = [
  'litHtmlVersions',
  'litElementVersions',
  'reactiveElementVersions',
  'litPropertyMetadata',
  '__zod_globalConfig',
] as const;

const presentBefore = new Set<string>(LIBRARY_GLOBALS.filter((name) => name in globalThis));

export function removeLibraryGlobals(): void {
  for (const name of LIBRARY_GLOBALS) {
    if (!presentBefore.has(name)) delete (globalThis as Record<string, unknown>)[name];
  }
}
