// The engine table in docs/embedding.md, from MDN's browser-compat-data (the
// versions) and the list below (what Questboard uses, and what it does where
// an engine lacks it). `npm run compat` prints it; test/docs checks that the
// docs/embedding.md holds exactly this table, so it cannot drift from the data.
import { createRequire } from 'node:module';

const bcd = createRequire(import.meta.url)('@mdn/browser-compat-data');

/** [what we use, its BCD path, what Questboard does where an engine lacks it] */
export const FEATURES = [
  ['`Request.body` stream', 'api.Request.body', 'reads the body whole with `arrayBuffer()` and counts it against the limit'],
  ['IndexedDB `durability`', 'api.IDBTransaction.durability', 'the option is ignored: the engine’s default durability'],
  ['`BroadcastChannel`', 'api.BroadcastChannel', 'within the baseline'],
  ['`navigator.storage.persist()`', 'api.StorageManager.persist', 'skips the request (an opt-in: `data-persist-storage`)'],
  ['Trusted Types', 'api.TrustedTypePolicyFactory', 'plain strings where no policy factory exists'],
  ['`Element.setHTML()`', 'api.Element.setHTML', 'inert parse, rebuilt node by node from the allowlist'],
  ['constructed stylesheets', 'api.Document.adoptedStyleSheets', 'a `<style>` element (Lit does the same in shadow roots)'],
  ['`crypto.randomUUID()` (secure contexts)', 'api.Crypto.randomUUID', 'a v4 GUID from `crypto.getRandomValues()`'],
  [
    '`crypto.subtle.digest()` (secure contexts)',
    'api.SubtleCrypto.digest',
    'needed only by a configured remote, which needs an https page',
  ],
  [
    'Ed25519 in `crypto.subtle` (member tokens signed with EdDSA)',
    'api.SubtleCrypto.verify.ed25519',
    'refuses such tokens as `member-token-invalid`: sign with ES256, which every engine verifies',
  ],
  ['`JSON.rawJSON`', 'javascript.builtins.JSON.rawJSON', 'quantities written as marked strings, then unquoted'],
  ['`Intl.RelativeTimeFormat`', 'javascript.builtins.Intl.RelativeTimeFormat', 'within the baseline'],
  ['`Clients.claim()`', 'api.Clients.claim', 'the embed waits 3 s for control, then runs the handler in the page'],
  ['`Object.hasOwn`', 'javascript.builtins.Object.hasOwn', 'nothing: the newest feature the code needs sets the baseline'],
];

const ENGINES = [
  ['Chromium', 'chrome'],
  ['Firefox', 'firefox'],
  ['Safari', 'safari'],
];

/**
 * @param {string} path
 * @param {string} browser
 */
function since(path, browser) {
  // Any: a walk down browser-compat-data's tree by a dotted path, of any depth.
  const compat = path.split('.').reduce((/** @type {any} */ node, key) => node?.[key], bcd)?.__compat;
  if (!compat) throw new Error(`browser-compat-data has no ${path}`);
  const support = [compat.support[browser]].flat()[0];
  const added = support?.version_added;
  if (!added || support.flags || added === 'preview') return 'no';
  return support.partial_implementation ? `${added} (partial)` : added;
}

export function engineTable() {
  const header = `| feature | ${ENGINES.map(([name]) => name).join(' | ')} | where missing, Questboard… |`;
  const rule = `|---|${ENGINES.map(() => '---').join('|')}|---|`;
  const rows = FEATURES.map(
    ([name, path, fallback]) => `| ${name} | ${ENGINES.map(([, id]) => since(path, id)).join(' | ')} | ${fallback} |`,
  );
  return [header, rule, ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(engineTable());
