/**
 * The URL of `file` in the directory the embed was loaded from, where dist/ puts the files it
 * loads later (the page's own directory for a copy without a src).
 */
export function besideScript(script: HTMLOrSVGScriptElement | null, file: string): string {
  const base = script instanceof HTMLScriptElement && script.src ? script.src : document.baseURI;
  return new URL(file, base).href;
}

/** Imports the ES module `file` from beside the embed (dist/ ships it there). */
export function importBeside<Module>(script: HTMLOrSVGScriptElement | null, file: string): Promise<Module> {
  return import(/* @vite-ignore */ besideScript(script, file)) as Promise<Module>;
}
