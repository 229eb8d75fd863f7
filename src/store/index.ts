// PLACEHOLDER: the real store is being written; signature is fixed.
export interface Store {
  close(): void;
}
/** Opens (lazily) the Questboard database of this origin. Default name 'questboard'. */
export function openStore(_options: { name?: string } = {}): Store {
  return { close() {} };
}
