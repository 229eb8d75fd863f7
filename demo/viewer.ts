// The member the presenter is looking as: every panel follows it, and it
// survives a reload so a rehearsed demo starts where it left off.
const STORAGE_KEY = 'questboard-demo:viewer';
const DEFAULT_VIEWER = 'alice';

export type ViewerListener = (accountName: string) => void;

export interface Viewer {
  readonly name: string;
  set(accountName: string): void;
  subscribe(listener: ViewerListener): void;
}

export function createViewer(): Viewer {
  let name = localStorage.getItem(STORAGE_KEY) || DEFAULT_VIEWER;
  const listeners = new Set<ViewerListener>();
  return {
    get name() {
      return name;
    },
    set(accountName) {
      if (accountName === name) return;
      name = accountName;
      localStorage.setItem(STORAGE_KEY, name);
      for (const listener of listeners) listener(name);
    },
    subscribe(listener) {
      listeners.add(listener);
    },
  };
}
