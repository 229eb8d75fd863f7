// Elements a page may use that the script-tag embed does not carry: it loads each from beside
// itself the first time a page (or another element) shows one, so the embed stays within its
// budget however many elements Questboard grows. The ES modules define them all up front.

/** The elements loaded on demand, each in its own file: dist/elements/<tag>.js. */
export type LazyElement = `qb-${string}`;
export const LAZY_ELEMENTS: readonly LazyElement[] = [
  'qb-achievements',
  'qb-season-picker',
  'qb-quest-task',
  'qb-user-highlights',
  'qb-connect-social',
];

export type ElementLoader = (tag: LazyElement) => Promise<unknown>;

let loader: ElementLoader | undefined;
const loading = new Map<LazyElement, Promise<void>>();

/** How this build loads a lazy element (the embed: a file beside itself). */
export function setElementLoader(next: ElementLoader): void {
  loader = next;
}

/**
 * Resolves once `tag` is defined. An element that cannot be loaded stays an unknown tag, with a
 * warning, rather than failing the page around it.
 */
export function loadElement(tag: LazyElement): Promise<void> {
  if (customElements.get(tag)) return Promise.resolve();
  let pending = loading.get(tag);
  if (!pending) {
    pending = (loader ? loader(tag) : Promise.reject(new Error('this build has no loader for it'))).then(
      () => undefined,
      (error: unknown) => {
        loading.delete(tag);
        console.warn(`[questboard] <${tag}> could not be loaded: ${String(error)}`);
      },
    );
    loading.set(tag, pending);
  }
  return pending;
}
