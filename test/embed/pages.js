// The embed tests' pages, served by web-test-runner at /test/embed/pages/<name>.html (their
// scripts and stylesheets are files beside them, in test/embed/pages/). Each page is one of two
// templates with the parts that page is about.

/** A strict CSP, as a careful site sends it; with Trusted Types enforced unless a page says why not. */
const CSP = `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'`;
const TRUSTED_TYPES = `require-trusted-types-for 'script'; trusted-types questboard lit-html`;

const BOARD = `<div id="board" data-questboard-leaderboard data-app-id="guild" data-leaderboard-type="score"></div>`;
const USER_CARD = `<qb-user-card app-id="guild" account-name="alice"></qb-user-card>`;

/** The embed's script tag as a site writes it, with the service worker setting under test. */
const embedTag = (serviceWorker) =>
  `<script src="/dist/questboard.js" data-api-key="pk_guild" data-service-worker="${serviceWorker}" defer></script>`;

/**
 * A page for the embed: a strict CSP, ./record-page.js first (it records CSP violations and
 * console lines), then the page's own `scripts` (tags), then its `main` content under a heading
 * that repeats the title.
 */
function embedPage({ title, lang = 'en', trustedTypes = true, scripts = [], main }) {
  return `<!doctype html>
<html lang="${lang}">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="${trustedTypes ? `${CSP}; ${TRUSTED_TYPES}` : CSP}" />
    <title>${title}</title>
    <script src="./record-page.js"></script>
    ${scripts.join('\n    ')}
  </head>
  <body>
    <main>
      <h1>${title}</h1>
      ${main.join('\n      ')}
    </main>
  </body>
</html>
`;
}

/**
 * A host page as sites build them: no CSP and no recorder, only the site's own stylesheets and
 * scripts (`head`) and ./host-content.js, the same content and widgets on every host page, so
 * test/embed/host-pages.test.ts can compare their computed styles. The test adds the embed.
 */
function hostPage({ title, head }) {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title}</title>
    ${head.join('\n    ')}
  </head>
  <body>
    <script src="./host-content.js"></script>
  </body>
</html>
`;
}

const stylesheet = (href) => `<link rel="stylesheet" href="${href}" />`;
const BOOTSTRAP = stylesheet('/node_modules/bootstrap/dist/css/bootstrap.min.css');
const PICO = stylesheet('/node_modules/@picocss/pico/css/pico.min.css');
const TAILWIND_PREFLIGHT = stylesheet('/node_modules/tailwindcss/preflight.css');

/** Every page by name. */
export const PAGES = {
  // What the page's globals are without the embed, to compare with.
  baseline: embedPage({ title: 'A page without the embed', main: [BOARD, USER_CARD] }),
  'no-worker': embedPage({ title: 'Embed without a worker', scripts: [embedTag('none')], main: [BOARD, USER_CARD] }),
  // A quest's actions, which the embed loads on demand from dist/elements/qb-quest-task.js (test/components/quest-dataset.ts).
  quest: embedPage({
    title: 'A quest in the embed',
    scripts: [embedTag('none')],
    main: [
      `<qb-challenge app-id="guild" challenge-id="5e1f0a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b" account-name="alice"></qb-challenge>`,
    ],
  }),
  worker: embedPage({ title: 'Embed with its worker', scripts: [embedTag('/questboard-sw.js')], main: [BOARD, USER_CARD] }),
  'without-set-html': embedPage({
    title: 'Embed in a browser without setHTML',
    scripts: ['<script src="./without-set-html.js"></script>', embedTag('none')],
    main: [BOARD, USER_CARD],
  }),
  placeholder: embedPage({
    title: 'Containers with a loading placeholder',
    scripts: [embedTag('none')],
    main: [
      `<div id="loading" data-questboard-leaderboard data-app-id="guild">
        <!-- Shown until the leaderboard arrives. -->
        <p data-questboard-placeholder>Loading leaderboard…</p>
        <div data-questboard-placeholder class="skeleton"></div>
      </div>`,
      `<div id="mixed" data-questboard-leaderboard data-app-id="guild">
        <p data-questboard-placeholder>Loading leaderboard…</p>
        <p>Our own note about the leaderboard.</p>
      </div>`,
    ],
  }),
  german: embedPage({
    title: 'Eine deutsche Seite mit dem Embed',
    lang: 'de',
    scripts: [embedTag('none')],
    main: [
      `<div id="board" data-questboard-leaderboard data-app-id="guild" data-leaderboard-type="weekly"></div>`,
      `<qb-leaderboard app-id="guild" type="weekly" highlight="carol" limit="2"></qb-leaderboard>`,
      USER_CARD,
      `<qb-challenge challenge-id="0b6c1a52-7a0e-4d3c-9f3e-1c2d3e4f5a6b" account-name="alice"></qb-challenge>`,
      `<qb-endorse-button app-id="guild" from="alice" to="bob" endorsement-id="helpful"></qb-endorse-button>`,
      `<qb-connect-social app-id="guild" account-name="alice"></qb-connect-social>`,
      `<qb-achievements app-id="guild" account-name="alice"></qb-achievements>`,
    ],
  }),
  // An element the embed does not carry: it loads it from beside itself (dist/elements/).
  'on-demand': embedPage({
    title: 'An element loaded on demand',
    scripts: [embedTag('none')],
    main: [`<qb-achievements id="first" app-id="guild" account-name="alice"></qb-achievements>`],
  }),
  // Without Trusted Types: ./member-token.js, the stand-in for the site's backend that writes
  // the embed's tag, sets a script's src from a string, which they would refuse.
  'member-token': embedPage({
    title: 'Embed with a member token',
    trustedTypes: false,
    scripts: ['<script src="./member-token.js"></script>'],
    main: [
      `<qb-endorse-button app-id="guild" to="bob" endorsement-id="helpful">
        <a slot="sign-in" href="#sign-in">Sign in to endorse bob</a>
      </qb-endorse-button>`,
    ],
  }),
  'host-bare': hostPage({ title: 'Host page without a stylesheet', head: [] }),
  'host-bootstrap': hostPage({ title: 'Host page with Bootstrap 5', head: [BOOTSTRAP] }),
  'host-pico': hostPage({ title: 'Host page with Pico 2', head: [PICO] }),
  'host-tailwind': hostPage({ title: "Host page with Tailwind's preflight", head: [TAILWIND_PREFLIGHT] }),
  'host-hostile': hostPage({ title: 'Host page with a hostile theme', head: [stylesheet('./host-hostile.css')] }),
  'theme-bootstrap': hostPage({
    title: "Bootstrap 5 with Questboard's bootstrap theme",
    head: [BOOTSTRAP, stylesheet('/dist/themes/bootstrap.css')],
  }),
  'theme-pico': hostPage({ title: "Pico 2 with Questboard's pico theme", head: [PICO, stylesheet('/dist/themes/pico.css')] }),
  'theme-tailwind': hostPage({
    title: "Tailwind's preflight with Questboard's tailwind theme",
    head: [TAILWIND_PREFLIGHT, '<script src="./tailwind-variables.js"></script>', stylesheet('/dist/themes/tailwind.css')],
  }),
};

/** The web-test-runner plugin that serves PAGES. */
export function embedPagesPlugin() {
  return {
    name: 'questboard-embed-pages',
    serve(context) {
      const name = /^\/test\/embed\/pages\/([\w-]+)\.html$/.exec(context.path)?.[1];
      if (name === undefined || !Object.hasOwn(PAGES, name)) return undefined;
      return { body: PAGES[name], type: 'html' };
    },
  };
}
