// The real dist/questboard.js (run `npm run build` first) on host pages built with Bootstrap,
// Pico, Tailwind's preflight and a hostile WordPress-style theme (host-* in test/embed/pages.js):
// every widget and the leaderboard fragment look exactly as on a page without any stylesheet,
// the host page looks exactly as before the embed came, and the theme files and the `theme`
// settings take effect.
import { expect } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { emulateMedia } from '@web/test-runner-commands';
import { deleteDB } from 'idb';
import { QuestboardClient } from '../../src/client/client.js';
import { inPageTransport } from '../../src/client/local-in-page-transport.js';
import { PALETTE } from '../../src/ui/theme.js';
import { ADMIN_KEY, guildDataset } from '../components/support.js';
import { canEmulateMedia, itWhere } from '../engine.js';
import { openFrame, openFrames } from './frames.js';

const itEmulatingMedia = itWhere(canEmulateMedia, 'its driver cannot emulate media features');

type HostWindow = Window & typeof globalThis & { hostReady?: Promise<void>; Questboard?: { configure(settings: object): void } };

interface HostPage {
  win: HostWindow;
  doc: Document;
}

/** Each widget with what shows it has loaded, in its shadow root. */
const WIDGETS: Array<[string, string]> = [
  ['qb-leaderboard', 'table'],
  ['qb-user-card', '.card'],
  ['qb-task-progress', '.task'],
  ['qb-challenge', 'qb-task-progress'],
  ['qb-endorse-button', 'button'],
  ['qb-connect-social', 'form'],
];

/** Properties a page's own text styles reach through inheritance. */
const TEXT = [
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'font-stretch',
  'font-variant-caps',
  'font-feature-settings',
  'line-height',
  'letter-spacing',
  'word-spacing',
  'text-transform',
  'text-align',
  'text-indent',
  'text-shadow',
  'white-space',
  'word-break',
  'overflow-wrap',
  'color',
  'writing-mode',
  'visibility',
];
const SIDES = ['top', 'right', 'bottom', 'left'];
/** What a page's rules on an element's own box would change. */
const BOX = [
  'display',
  'box-sizing',
  'background-color',
  'background-image',
  'box-shadow',
  'vertical-align',
  'caption-side',
  'border-collapse',
  'border-spacing',
  'table-layout',
  'list-style-type',
  'text-decoration-line',
  'float',
  ...SIDES.flatMap((side) => [
    `margin-${side}`,
    `padding-${side}`,
    `border-${side}-width`,
    `border-${side}-style`,
    `border-${side}-color`,
  ]),
  ...['top-left', 'top-right', 'bottom-left', 'bottom-right'].map((corner) => `border-${corner}-radius`),
];

type Styles = Map<string, Record<string, string>>;

function record(styles: Styles, path: string, element: Element, properties: string[]): void {
  const computed = getComputedStyle(element);
  styles.set(path, Object.fromEntries(properties.map((name) => [name, computed.getPropertyValue(name)])));
}

/**
 * Every element of a widget's shadow tree (into nested widgets) with all the properties; the
 * widget itself with its text and colours only: a page may set its margins (Tailwind's
 * preflight zeroes every element's), which is the page's say over its own layout.
 */
function recordWidget(styles: Styles, path: string, widget: Element): void {
  record(styles, path, widget, [...TEXT, 'background-color']);
  const walk = (root: ParentNode, prefix: string) => {
    [...root.children].forEach((child, index) => {
      if (child.localName === 'style') return;
      const childPath = `${prefix} > ${child.localName}:${index}`;
      if (child.shadowRoot) recordWidget(styles, childPath, child);
      else record(styles, childPath, child, [...TEXT, ...BOX]);
      walk(child, childPath);
    });
  };
  walk(widget.shadowRoot!, `${path} #shadow`);
}

function recordTree(styles: Styles, path: string, root: Element): void {
  record(styles, path, root, [...TEXT, ...BOX]);
  [...root.children].forEach((child, index) => recordTree(styles, `${path} > ${child.localName}:${index}`, child));
}

function widgetStyles(doc: Document): Styles {
  const styles: Styles = new Map();
  recordTree(styles, 'fragment', doc.querySelector('#board > .qb-lb')!);
  doc.querySelectorAll('#widgets > *').forEach((widget, index) => {
    if (widget.shadowRoot) recordWidget(styles, `${widget.localName}:${index}`, widget);
  });
  return styles;
}

function hostStyles(doc: Document): Styles {
  const styles: Styles = new Map();
  record(styles, 'html', doc.documentElement, [...TEXT, ...BOX]);
  record(styles, 'body', doc.body, [...TEXT, ...BOX]);
  recordTree(styles, 'host', doc.getElementById('host')!);
  record(styles, 'widgets', doc.getElementById('widgets')!, [...TEXT, ...BOX]);
  return styles;
}

function differences(expected: Styles, actual: Styles): string[] {
  const found: string[] = [];
  for (const [path, values] of expected) {
    const other = actual.get(path);
    if (!other) {
      found.push(`${path}: missing`);
      continue;
    }
    for (const [name, value] of Object.entries(values)) {
      if (other[name] !== value) found.push(`${path} ${name}: ${value} → ${other[name]}`);
    }
  }
  if (actual.size !== expected.size) found.push(`${expected.size} elements → ${actual.size}`);
  return found;
}

async function openPage(name: string): Promise<HostPage> {
  const frame = await openFrame(name);
  const win = frame.contentWindow as HostWindow;
  await win.hostReady;
  return { win, doc: frame.contentDocument! };
}

/** Adds the built embed to the page, as a site's <script> tag would, and waits for every widget. */
async function addEmbed({ doc }: HostPage, settings: Record<string, string> = {}): Promise<void> {
  const script = doc.createElement('script');
  script.src = '/dist/questboard.js';
  Object.assign(script.dataset, { apiKey: 'pk_guild', serviceWorker: 'none', ...settings });
  doc.head.append(script);
  await waitUntil(() => doc.querySelector('#board > .qb-lb table'), 'the container never filled', { timeout: 10_000 });
  for (const [tag, ready] of WIDGETS) {
    for (const widget of doc.querySelectorAll(tag)) {
      await waitUntil(() => widget.shadowRoot?.querySelector(ready), `<${tag}> never loaded`, { timeout: 10_000 });
    }
  }
  const nested = doc.querySelector('qb-challenge')!.shadowRoot!.querySelector('qb-task-progress')!;
  await waitUntil(() => nested.shadowRoot?.querySelector('.task'), 'the challenge’s task never loaded', { timeout: 10_000 });
  // The card's streak and badges, which the embed loads on demand from beside itself.
  const highlights = doc.querySelector('qb-user-card')!.shadowRoot!.querySelector('qb-user-highlights')!;
  await waitUntil(() => highlights.shadowRoot?.querySelector('.row'), 'the card’s highlights never loaded', { timeout: 10_000 });
}

async function openWithEmbed(name: string): Promise<HostPage> {
  const page = await openPage(name);
  await addEmbed(page);
  return page;
}

/** The colour `value` (a colour or a var()) computes to on the page, through an element of its own. */
function colorOf({ doc }: HostPage, value: string, property: 'color' | 'font-family' = 'color'): string {
  const probe = doc.createElement('span');
  probe.style.setProperty(property, value);
  doc.body.append(probe);
  const computed = getComputedStyle(probe).getPropertyValue(property);
  probe.remove();
  return computed;
}

/** The roots whose colours the themes set: every widget and the fragment's root. */
function roots(doc: Document): Element[] {
  return [doc.querySelector('#board > .qb-lb')!, ...doc.querySelectorAll('#widgets > *:not(#board)')];
}

describe('widgets on host pages', () => {
  let bare: Styles;

  before(async () => {
    const available = await fetch('/dist/questboard.js', { method: 'HEAD' });
    expect(available.ok, 'run npm run build before the embed tests').to.equal(true);
    // The pages share this origin's default database with the in-page handler.
    const seeder = inPageTransport();
    await new QuestboardClient({ transport: seeder, apiKey: ADMIN_KEY }).admin.importDataset(guildDataset(), { mode: 'replace' });
    await seeder.close();
    bare = widgetStyles((await openWithEmbed('host-bare')).doc);
  });

  afterEach(async () => {
    for (const frame of openFrames.splice(1)) frame.remove();
    if (canEmulateMedia) await emulateMedia({ colorScheme: 'light' });
  });

  after(async () => {
    for (const frame of openFrames.splice(0)) frame.remove();
    await deleteDB('questboard');
    await deleteDB('questboard-remote');
  });

  it('shows every widget and the fragment on the bare page with its own look', () => {
    const [board] = openFrames;
    const doc = board!.contentDocument!;
    const card = doc.querySelector('qb-user-card')!;
    expect(getComputedStyle(card).fontSize).to.equal('15px');
    expect(getComputedStyle(doc.querySelector('#board > .qb-lb')!).fontSize).to.equal('15px');
    // Stacked widgets keep the stack gap between them (12px: 0.8 × 15px).
    const [first, second] = doc.querySelectorAll('qb-task-progress');
    expect(second!.getBoundingClientRect().top - first!.getBoundingClientRect().bottom).to.equal(12);
  });

  for (const host of ['bootstrap', 'pico', 'tailwind', 'hostile']) {
    it(`looks the same on a ${host} page, and leaves the page as it was`, async () => {
      const page = await openPage(`host-${host}`);
      const before = hostStyles(page.doc);
      await addEmbed(page);
      expect(differences(before, hostStyles(page.doc)), 'the host page changed').to.deep.equal([]);
      expect(differences(bare, widgetStyles(page.doc)), 'the widgets changed').to.deep.equal([]);
    });
  }

  it('can tell a difference: a page rule on a fragment part with more weight shows', async () => {
    const page = await openPage('host-bare');
    const style = page.doc.createElement('style');
    style.textContent = '#board .qb-lb__caption { letter-spacing: 3px; }';
    page.doc.head.append(style);
    await addEmbed(page);
    expect(differences(bare, widgetStyles(page.doc))).to.deep.equal([
      'fragment > table:0 > caption:0 letter-spacing: normal → 3px',
    ]);
  });

  it('follows data-theme on a container and Questboard.configure({ theme }) on a light OS', async () => {
    const page = await openWithEmbed('host-bare');
    expect(page.win.matchMedia('(prefers-color-scheme: dark)').matches, 'a light OS').to.equal(false);
    const container = page.doc.getElementById('board')!;
    const fragment = () => container.querySelector('.qb-lb')!;
    const surface = () => getComputedStyle(fragment()).backgroundColor;
    expect(surface()).to.equal(colorOf(page, PALETTE.surface.light));
    container.dataset.theme = 'dark';
    await waitUntil(() => surface() === colorOf(page, PALETTE.surface.dark), 'data-theme="dark" not followed');
    delete container.dataset.theme;
    await waitUntil(() => surface() === colorOf(page, PALETTE.surface.light), 'data-theme removed, still dark');
    page.win.Questboard!.configure({ theme: 'dark' });
    await waitUntil(
      () => roots(page.doc).every((root) => getComputedStyle(root).backgroundColor === colorOf(page, PALETTE.surface.dark)),
      'configure({ theme: "dark" }) not followed by every widget',
    );
  });

  it('takes a page-wide theme from the embed’s own data-theme', async () => {
    const page = await openPage('host-bare');
    await addEmbed(page, { theme: 'dark' });
    const dark = colorOf(page, PALETTE.surface.dark);
    expect(roots(page.doc).map((root) => getComputedStyle(root).backgroundColor)).to.deep.equal(roots(page.doc).map(() => dark));
  });

  itEmulatingMedia('shows a container with data-theme="light" light on a dark OS', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const page = await openPage('host-bare');
    page.doc.getElementById('board')!.dataset.theme = 'light';
    await addEmbed(page);
    expect(page.win.matchMedia('(prefers-color-scheme: dark)').matches, 'a dark OS').to.equal(true);
    const fragment = page.doc.querySelector('#board > .qb-lb')!;
    expect(getComputedStyle(fragment).backgroundColor).to.equal(colorOf(page, PALETTE.surface.light));
    expect(getComputedStyle(page.doc.querySelector('qb-user-card')!).backgroundColor).to.equal(
      colorOf(page, PALETTE.surface.dark),
    );
  });

  const THEMES: Array<{
    name: string;
    surface: string;
    text: string;
    accent: string;
    font: string;
    dark(page: HostPage): void;
    darkAccent: string;
  }> = [
    {
      name: 'bootstrap',
      surface: 'var(--bs-body-bg)',
      text: 'var(--bs-body-color)',
      accent: 'var(--bs-primary)',
      font: 'var(--bs-body-font-family)',
      dark: ({ doc }) => doc.documentElement.setAttribute('data-bs-theme', 'dark'),
      darkAccent: 'var(--bs-primary-text-emphasis)',
    },
    {
      name: 'pico',
      surface: 'var(--pico-background-color)',
      text: 'var(--pico-color)',
      accent: 'var(--pico-primary-background)',
      font: 'var(--pico-font-family)',
      dark: ({ doc }) => doc.documentElement.setAttribute('data-theme', 'dark'),
      darkAccent: 'var(--pico-primary-background)',
    },
    {
      name: 'tailwind',
      surface: 'var(--color-white)',
      text: 'var(--color-gray-900)',
      accent: 'var(--color-blue-600)',
      font: 'var(--font-sans)',
      // Tailwind's scheme-dark utility, beside its dark class.
      dark: ({ doc }) => doc.documentElement.style.setProperty('color-scheme', 'dark'),
      darkAccent: 'var(--color-blue-400)',
    },
  ];

  for (const theme of THEMES) {
    it(`dist/themes/${theme.name}.css dresses every widget in the framework's colours, light and dark`, async () => {
      const page = await openWithEmbed(`theme-${theme.name}`);
      // No easing: the button's colour is read at once after the switch.
      page.doc.documentElement.style.setProperty('--qb-duration', '0s');
      const endorse = () => page.doc.querySelector('qb-endorse-button')!.shadowRoot!.querySelector('button')!;
      const look = () =>
        roots(page.doc).map((root) => {
          const style = getComputedStyle(root);
          return [root.localName, style.backgroundColor, style.color, style.fontFamily];
        });
      const expected = (surface: string, text: string) =>
        roots(page.doc).map((root) => [
          root.localName,
          colorOf(page, surface),
          colorOf(page, text),
          colorOf(page, theme.font, 'font-family'),
        ]);
      expect(look()).to.deep.equal(expected(theme.surface, theme.text));
      expect(getComputedStyle(endorse()).backgroundColor).to.equal(colorOf(page, theme.accent));
      const lightSurface = colorOf(page, theme.surface);

      theme.dark(page);
      await waitUntil(() => roots(page.doc).every((root) => root.getAttribute('data-qb-scheme') === 'dark'), 'never dark');
      const darkSurface = theme.name === 'tailwind' ? 'var(--color-gray-900)' : theme.surface;
      const darkText = theme.name === 'tailwind' ? 'var(--color-gray-100)' : theme.text;
      expect(look()).to.deep.equal(expected(darkSurface, darkText));
      expect(colorOf(page, darkSurface)).to.not.equal(lightSurface);
      expect(getComputedStyle(endorse()).backgroundColor).to.equal(colorOf(page, theme.darkAccent));
    });
  }

  it('dist/themes/tailwind.css falls back to Tailwind’s own defaults where a build left a variable out', async () => {
    const page = await openWithEmbed('theme-tailwind');
    const card = page.doc.querySelector('qb-user-card')!;
    const withVariables = [getComputedStyle(card).color, getComputedStyle(card).fontFamily];
    page.doc.getElementById('tailwind-variables')!.remove();
    expect(getComputedStyle(page.doc.documentElement).getPropertyValue('--color-gray-900')).to.equal('');
    expect([getComputedStyle(card).color, getComputedStyle(card).fontFamily]).to.deep.equal(withVariables);
  });
});
