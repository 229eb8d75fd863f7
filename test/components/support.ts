// Component test support: the API through the in-page transport with a database of the test
// file's own, seeded through POST /v1/admin/import, and transports that count or hold requests.
import { deleteDB } from 'idb';
import { configure } from '../../src/client/config.js';
import { QuestboardClient } from '../../src/client/client.js';
import { inPageTransport } from '../../src/client/local-in-page-transport.js';
import type { Transport } from '../../src/client/transport.js';
import type { Dataset } from '../../src/api/schemas.js';

// No easing in tests: axe measures contrast at one instant, and a colour halfway through a
// transition is neither the state before nor the state after.
document.documentElement.style.setProperty('--qb-duration', '0s');

export const APP_ID = 'guild';
export const API_KEY = 'pk_guild';
export const ADMIN_KEY = 'sk_admin';
export const CHALLENGE_ID = '0b6c1a52-7a0e-4d3c-9f3e-1c2d3e4f5a6b';
export const FUTURE_CHALLENGE_ID = '7d0f8e2a-1b3c-4d5e-8f9a-0b1c2d3e4f5a';
export const POST_TASK_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
export const PROFILE_TASK_ID = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';

export function guildDataset(extraUsers: string[] = []): Dataset {
  return {
    admin_keys: [ADMIN_KEY],
    apps: [
      {
        app_id: APP_ID,
        name: 'Builders Guild',
        api_keys: [{ key: API_KEY, scopes: ['read', 'write'] }],
        users: ['alice', 'bob', 'carol', ...extraUsers].map((account_name) => ({ account_name, is_active: true })),
        challenges: [
          {
            challenge_id: CHALLENGE_ID,
            name: 'Onboarding',
            description: 'Find your way around the guild.',
            start_date: '2026-01-01T00:00:00Z',
            points: 50,
            tasks: [
              {
                task_id: POST_TASK_ID,
                name: 'Post 3 times',
                quantity: 3,
                operator: 0,
                metadata: { action: 'post' },
                points: 10,
                allowretry: false,
                alloweditquantity: false,
              },
              {
                task_id: PROFILE_TASK_ID,
                name: 'Fill in your profile',
                quantity: 1,
                operator: 0,
                metadata: { action: 'profile' },
                points: 20,
                allowretry: false,
                alloweditquantity: false,
              },
            ],
          },
          {
            challenge_id: FUTURE_CHALLENGE_ID,
            name: 'Winter quest',
            description: 'Starts later.',
            start_date: '2099-01-01T00:00:00Z',
            tasks: [],
          },
        ],
        progress: [
          { task_id: POST_TASK_ID, account_name: 'alice', quantity: 2, at: '2026-11-01T10:00:00Z' },
          { task_id: PROFILE_TASK_ID, account_name: 'alice', quantity: 1, at: '2026-11-01T10:00:00Z' },
          { task_id: POST_TASK_ID, account_name: 'bob', quantity: 3, at: '2026-11-02T10:00:00Z' },
        ],
        endorsements: [],
      },
    ],
  } as Dataset;
}

export interface TestApi {
  admin: QuestboardClient;
  member: QuestboardClient;
  /** Every path the components sent, in order. */
  sent: string[];
  /** Holds every request until release() is called (to see loading states). */
  hold(): void;
  /** The next request gets no answer, as if the network were down. */
  failNext(): void;
  release(): void;
  teardown(): Promise<void>;
}

/** Configures Questboard with a fresh in-page database seeded with `dataset`. */
export async function setupApi(dataset: Dataset = guildDataset()): Promise<TestApi> {
  const dbName = `qb-components-${crypto.randomUUID()}`;
  const inner = inPageTransport({ dbName });
  const sent: string[] = [];
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  let failing = false;
  const transport: Transport = {
    kind: inner.kind,
    id: inner.id,
    announcesChanges: inner.announcesChanges,
    async send(path, init) {
      sent.push(path);
      if (gate) await gate;
      if (failing) {
        failing = false;
        throw new TypeError('Failed to fetch');
      }
      return inner.send(path, init);
    },
  };
  const admin = new QuestboardClient({ transport: inner, apiKey: ADMIN_KEY });
  await admin.admin.importDataset(dataset);
  configure({ apiKey: API_KEY, transport, baseUrl: undefined, serviceWorker: undefined, remote: undefined });
  return {
    admin,
    member: new QuestboardClient({ transport: inner, apiKey: API_KEY }),
    sent,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    failNext() {
      failing = true;
    },
    release() {
      gate = undefined;
      open?.();
    },
    async teardown() {
      configure({ apiKey: undefined, transport: undefined });
      await inner.close();
      await deleteDB(dbName);
      await deleteDB(`${dbName}-remote`);
    },
  };
}

/**
 * The API for the describe block that calls it: set up with `dataset` (setupApi) before its
 * tests and torn down after them. The object is empty until the block's tests run.
 */
export function useApi(dataset?: Dataset): TestApi {
  const api = {} as TestApi;
  before(async () => {
    Object.assign(api, await setupApi(dataset));
  });
  after(() => api.teardown());
  return api;
}

export function shadow(element: Element): ShadowRoot {
  return element.shadowRoot!;
}

/** Whether any dangerous node or attribute made it into the element's shadow tree. */
export function injected(root: ParentNode): string[] {
  const found: string[] = [];
  for (const element of root.querySelectorAll('*')) {
    if (['script', 'img', 'svg', 'iframe', 'object', 'embed'].includes(element.localName)) found.push(element.localName);
    for (const name of element.getAttributeNames()) if (name.startsWith('on') || name === 'srcdoc') found.push(name);
  }
  return found;
}
