// Every component, loaded, in dark and light color schemes, right-to-left, and with reduced
// motion: axe passes in each, and nothing moves for users who asked for less motion. And the
// colour scheme as a site chooses it: `theme`, configure({ theme }) and its page's color-scheme.
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { emulateMedia } from '@web/test-runner-commands';
import type { TemplateResult } from 'lit';
import '../../src/components/index.js';
import '../../src/components/lazy.js';
import { configure } from '../../src/client/config.js';
import { PALETTE } from '../../src/ui/theme.js';
import { APP_ID, CHALLENGE_ID, POST_TASK_ID, useApi } from './support.js';
import { canEmulateMedia, itWhere } from '../engine.js';

const itEmulatingMedia = itWhere(canEmulateMedia, 'its driver cannot emulate media features');

const COMPONENTS: Array<[string, TemplateResult, string]> = [
  ['qb-leaderboard', html`<qb-leaderboard app-id=${APP_ID} highlight="bob" limit="1"></qb-leaderboard>`, 'table'],
  ['qb-user-card', html`<qb-user-card app-id=${APP_ID} account-name="alice"></qb-user-card>`, '.card'],
  ['qb-task-progress', html`<qb-task-progress task-id=${POST_TASK_ID} account-name="alice"></qb-task-progress>`, '.task'],
  ['qb-challenge', html`<qb-challenge challenge-id=${CHALLENGE_ID} account-name="alice"></qb-challenge>`, '.card'],
  [
    'qb-endorse-button',
    html`<qb-endorse-button app-id=${APP_ID} from="alice" to="bob" endorsement-id="helpful"></qb-endorse-button>`,
    'button',
  ],
  ['qb-connect-social', html`<qb-connect-social app-id=${APP_ID} account-name="alice"></qb-connect-social>`, 'form'],
  [
    'qb-quest-task',
    html`<qb-quest-task app-id=${APP_ID} task-id=${POST_TASK_ID} kind="code" task-name="Post" account-name="alice"></qb-quest-task>`,
    'form',
  ],
  ['qb-user-highlights', html`<qb-user-highlights app-id=${APP_ID} account-name="alice"></qb-user-highlights>`, '.row'],
];

function transitionsIn(root: ShadowRoot): string[] {
  return [...root.querySelectorAll('*')]
    .map((element) => getComputedStyle(element).transitionDuration)
    .filter((duration) => duration.split(',').some((part) => part.trim() !== '0s'));
}

describe('themes, direction and motion', () => {
  useApi();
  after(async () => {
    if (canEmulateMedia) await emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  });

  for (const [tag, template, readySelector] of COMPONENTS) {
    itEmulatingMedia(`<${tag}> passes axe in both color schemes and right-to-left`, async () => {
      const wrapper = await fixture<HTMLDivElement>(html`<div dir="rtl" lang="ar">${template}</div>`);
      const element = wrapper.firstElementChild!;
      await waitUntil(() => element.shadowRoot?.querySelector(readySelector), `<${tag}> never loaded`);
      // Without transitions, so that axe sees the colors of a scheme, not a blend on the way.
      await emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
      const darkText = getComputedStyle(element).color;
      await expect(wrapper).to.be.accessible();
      // Each call replaces every emulated feature, so both are always given.
      await emulateMedia({ reducedMotion: 'reduce', colorScheme: 'light' });
      expect(getComputedStyle(element).color).to.not.equal(darkText);
      await expect(wrapper).to.be.accessible();
      await emulateMedia({ reducedMotion: 'no-preference', colorScheme: 'light' });
    });

    itEmulatingMedia(`<${tag}> has no transitions under prefers-reduced-motion`, async () => {
      const element = await fixture<HTMLElement>(template);
      // The tests' default is no easing at all (support.ts): give this one some to take away.
      element.style.setProperty('--qb-duration', '200ms');
      await waitUntil(() => element.shadowRoot?.querySelector(readySelector), `<${tag}> never loaded`);
      await emulateMedia({ reducedMotion: 'reduce' });
      expect(transitionsIn(element.shadowRoot!)).to.deep.equal([]);
      await emulateMedia({ reducedMotion: 'no-preference' });
    });
  }

  it('lets a page theme every component through --qb-* tokens and ::part', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <style>
        .themed { --qb-color-accent: rgb(120, 0, 60); --qb-color-text: rgb(10, 20, 30); }
        .themed qb-endorse-button::part(button) { border-radius: 0; }
      </style>
      <div class="themed">
        <qb-endorse-button app-id=${APP_ID} from="alice" to="bob" endorsement-id="helpful"></qb-endorse-button>
      </div>
    </div>`);
    const element = wrapper.querySelector('qb-endorse-button')!;
    const button = element.shadowRoot!.querySelector('button')!;
    expect(getComputedStyle(button).backgroundColor).to.equal('rgb(120, 0, 60)');
    expect(getComputedStyle(element).color).to.equal('rgb(10, 20, 30)');
    expect(getComputedStyle(button).borderTopLeftRadius).to.equal('0px');
  });
});

/** Each element's attributes and what shows it has loaded. */
const ELEMENTS: Array<[string, Record<string, string>, string]> = [
  ['qb-leaderboard', { 'app-id': APP_ID, limit: '1' }, 'table'],
  ['qb-user-card', { 'app-id': APP_ID, 'account-name': 'alice' }, '.card'],
  ['qb-task-progress', { 'task-id': POST_TASK_ID, 'account-name': 'alice' }, '.task'],
  ['qb-challenge', { 'challenge-id': CHALLENGE_ID, 'account-name': 'alice' }, '.card'],
  ['qb-endorse-button', { 'app-id': APP_ID, from: 'alice', to: 'bob', 'endorsement-id': 'helpful' }, 'button'],
  ['qb-connect-social', { 'app-id': APP_ID, 'account-name': 'alice' }, 'form'],
  ['qb-quest-task', { 'app-id': APP_ID, 'task-id': POST_TASK_ID, kind: 'code', 'account-name': 'alice' }, 'form'],
  ['qb-user-highlights', { 'app-id': APP_ID, 'account-name': 'alice' }, '.row'],
];

/** The computed form of a palette colour. */
function computed(color: string): string {
  const probe = document.createElement('span');
  probe.style.color = color;
  document.body.append(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}

const LIGHT = computed(PALETTE.surface.light);
const DARK = computed(PALETTE.surface.dark);
const surface = (element: Element) => getComputedStyle(element).backgroundColor;

describe('the theme setting', () => {
  const api = useApi();
  const added: Element[] = [];

  /** Adds the element to `parent` (the page by default) once its attributes are set, as a page's markup would. */
  function create(tag: string, attributes: Record<string, string>, parent: Element = document.body): HTMLElement {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    parent.append(element);
    added.push(element);
    return element;
  }

  afterEach(async () => {
    for (const element of added.splice(0)) element.remove();
    configure({ theme: undefined });
    document.documentElement.style.removeProperty('color-scheme');
    if (canEmulateMedia) await emulateMedia({ colorScheme: 'light' });
  });

  for (const [tag, attributes, ready] of ELEMENTS) {
    it(`<${tag} theme="dark"> is dark on a light OS`, async () => {
      expect(matchMedia('(prefers-color-scheme: dark)').matches, 'a light OS').to.equal(false);
      const element = create(tag, { ...attributes, theme: 'dark' });
      await waitUntil(() => element.shadowRoot?.querySelector(ready), `<${tag}> never loaded`);
      expect(surface(element)).to.equal(DARK);
      expect(getComputedStyle(element).colorScheme).to.equal('dark');
      (element as HTMLElement & { theme: string }).theme = 'auto';
      await waitUntil(() => surface(element) === LIGHT, 'theme="auto" did not follow the OS again');
    });

    itEmulatingMedia(`<${tag} theme="light"> is light on a dark OS`, async () => {
      await emulateMedia({ colorScheme: 'dark' });
      const element = create(tag, { ...attributes, theme: 'light' });
      const auto = create(tag, attributes);
      await waitUntil(() => element.shadowRoot?.querySelector(ready), `<${tag}> never loaded`);
      expect(surface(element)).to.equal(LIGHT);
      expect(surface(auto)).to.equal(DARK);
    });
  }

  it('takes configure({ theme }) where an element says auto, and loads nothing again for it', async () => {
    const auto = create('qb-user-card', { 'app-id': APP_ID, 'account-name': 'alice' });
    const light = create('qb-user-card', { 'app-id': APP_ID, 'account-name': 'alice', theme: 'light' });
    await waitUntil(() => auto.shadowRoot?.querySelector('.card') && light.shadowRoot?.querySelector('.card'), 'never loaded');
    const sent = api.sent.length;
    configure({ theme: 'dark' });
    await waitUntil(() => surface(auto) === DARK, 'configure({ theme: "dark" }) not followed');
    expect(surface(light)).to.equal(LIGHT);
    expect(auto.shadowRoot!.querySelector('.card')).to.not.equal(null);
    expect(api.sent.length).to.equal(sent);
  });

  it('follows the color-scheme of the page around it, as it is and as it changes on <html>', async () => {
    const wrapper = document.createElement('div');
    wrapper.style.colorScheme = 'dark';
    document.body.append(wrapper);
    added.push(wrapper);
    const inDark = create('qb-user-card', { 'app-id': APP_ID, 'account-name': 'alice' }, wrapper);
    const onPage = create('qb-user-card', { 'app-id': APP_ID, 'account-name': 'alice' });
    expect(surface(inDark)).to.equal(DARK);
    expect(surface(onPage)).to.equal(LIGHT);
    // A site's dark mode switch on <html>; `light dark` leaves the choice to the OS (light here).
    document.documentElement.style.colorScheme = 'dark';
    await waitUntil(() => surface(onPage) === DARK, 'the page turning dark was not followed');
    document.documentElement.style.colorScheme = 'light dark';
    await waitUntil(() => surface(onPage) === LIGHT, 'the page leaving the choice to the OS was not followed');
  });

  it('shows an element inside another in the outer one’s scheme, as it changes', async () => {
    const challenge = create('qb-challenge', { 'challenge-id': CHALLENGE_ID, 'account-name': 'alice', theme: 'dark' });
    const task = () => challenge.shadowRoot?.querySelector('qb-task-progress');
    await waitUntil(() => task()?.shadowRoot?.querySelector('.task'), 'the challenge’s tasks never loaded');
    expect(surface(task()!)).to.equal(DARK);
    challenge.setAttribute('theme', 'light');
    await waitUntil(() => surface(task()!) === LIGHT, 'the task did not follow its challenge');
  });
});

describe('cards and stacking', () => {
  useApi();

  it('gives every card element a card surface, and stacked elements the stack gap between them', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <qb-task-progress task-id=${POST_TASK_ID} account-name="alice"></qb-task-progress>
      <qb-task-progress task-id=${POST_TASK_ID} account-name="bob"></qb-task-progress>
      <qb-connect-social app-id=${APP_ID} account-name="alice"></qb-connect-social>
    </div>`);
    const [first, second, social] = [...wrapper.children] as HTMLElement[];
    await waitUntil(
      () => second!.shadowRoot?.querySelector('.task') && first!.shadowRoot?.querySelector('.task'),
      'never loaded',
    );
    for (const surface of [first!.shadowRoot!.querySelector('.task')!, social!.shadowRoot!.querySelector('form')!]) {
      expect(getComputedStyle(surface).borderTopWidth).to.equal('1px');
      expect(getComputedStyle(surface).paddingTop).to.equal('12px');
    }
    const gap = (above: Element, below: Element) => below.getBoundingClientRect().top - above.getBoundingClientRect().bottom;
    expect(gap(first!, second!)).to.equal(12);
    expect(gap(second!, social!)).to.equal(12);
    expect(getComputedStyle(social!).marginBlockEnd, 'the last one').to.equal('0px');
    wrapper.style.setProperty('--qb-stack-gap', '20px');
    expect(gap(first!, second!)).to.equal(20);
  });

  it('draws a challenge’s tasks as rows of its card, not cards of their own', async () => {
    const challenge = await fixture<HTMLElement>(
      html`<qb-challenge challenge-id=${CHALLENGE_ID} account-name="alice"></qb-challenge>`,
    );
    const task = () => challenge.shadowRoot?.querySelector('qb-task-progress')?.shadowRoot?.querySelector('.task');
    await waitUntil(task, 'the challenge’s tasks never loaded');
    expect(getComputedStyle(challenge.shadowRoot!.querySelector('.card')!).borderTopWidth).to.equal('1px');
    expect(getComputedStyle(task()!).borderTopWidth).to.equal('0px');
    expect(getComputedStyle(task()!).paddingTop).to.equal('0px');
  });
});

describe('the host page’s text styles', () => {
  useApi();

  const INHERITED = [
    'text-transform',
    'letter-spacing',
    'word-spacing',
    'font-style',
    'font-weight',
    'font-size',
    'text-align',
    'text-indent',
    'line-height',
    'white-space',
    'text-shadow',
  ];
  const inherited = (element: Element) => {
    const style = getComputedStyle(element);
    return INHERITED.map((name) => `${name}: ${style.getPropertyValue(name)}`);
  };

  for (const [tag, attributes, ready] of ELEMENTS) {
    it(`stop at <${tag}>: names keep their case and the element its own text`, async () => {
      const plain = await fixture<HTMLDivElement>(html`<div></div>`);
      const hostile = await fixture<HTMLDivElement>(html`<div></div>`);
      // What a theme's headings and content areas set, inherited by everything inside.
      Object.assign(hostile.style, {
        textTransform: 'uppercase',
        letterSpacing: '0.2em',
        wordSpacing: '0.5em',
        fontStyle: 'italic',
        fontWeight: '800',
        fontSize: '9px',
        textAlign: 'center',
        textIndent: '3em',
        lineHeight: '3',
        whiteSpace: 'pre',
        textShadow: '1px 1px red',
      });
      const elements = [plain, hostile].map((parent) => {
        const element = document.createElement(tag);
        for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
        parent.append(element);
        return element;
      });
      for (const element of elements) await waitUntil(() => element.shadowRoot?.querySelector(ready), `<${tag}> never loaded`);
      const [inPlain, inHostile] = elements.map((element) =>
        [element, ...element.shadowRoot!.querySelectorAll('*')].map(inherited),
      );
      expect(inHostile).to.deep.equal(inPlain);
    });
  }
});
