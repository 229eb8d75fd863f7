import { expect, fixture, html } from '@open-wc/testing';
import { renderLeaderboardFragment, type LeaderboardEntry } from '../../src/ui/index.js';
import { HOSTILE_NAMES, pwned } from '../components/hostile-names.js';

function entry(rank: number, username: string, score: number): LeaderboardEntry {
  return { rank, external_user: { username }, challenge_count: 1, task_count: 3, score, total_xp: score + 5 };
}

// The test parses the fragment itself on purpose: it checks what the string is, before any sanitizer.
function parse(fragment: string): HTMLElement {
  const template = document.createElement('template');
  template.innerHTML = fragment;
  const root = template.content.firstElementChild as HTMLElement;
  document.body.append(template.content);
  return root;
}

describe('renderLeaderboardFragment', () => {
  afterEach(() => document.querySelectorAll('.qb-lb').forEach((node) => node.remove()));

  it('renders an accessible table with one row per entry', async () => {
    const root = parse(renderLeaderboardFragment([entry(1, 'alice', 1200), entry(2, 'bob', 900)], { totalUsers: 7 }));
    const table = root.querySelector('table')!;
    expect(table.querySelector('caption')!.textContent).to.equal('Leaderboard by score');
    expect([...table.querySelectorAll('thead th')].map((th) => th.getAttribute('scope'))).to.deep.equal(Array(6).fill('col'));
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows.map((row) => row.querySelector('th[scope=row]')!.textContent)).to.deep.equal(['alice', 'bob']);
    expect(rows[0]!.querySelectorAll('td')[1]!.textContent).to.equal('1,200');
    expect(root.querySelector('.qb-lb__summary')!.textContent).to.equal('Showing 1–2 of 7 members');
    await expect(root).to.be.accessible();
  });

  it('formats numbers in the requested locale and marks the language', () => {
    const root = parse(renderLeaderboardFragment([entry(1, 'alice', 1234567)], { locale: 'de-DE' }));
    expect(root.getAttribute('lang')).to.equal('de-DE');
    expect(root.querySelectorAll('tbody td')[1]!.textContent).to.equal('1.234.567');
  });

  it('marks the highlighted member as current', () => {
    const root = parse(renderLeaderboardFragment([entry(1, 'alice', 10), entry(2, 'bob', 5)], { highlight: 'bob' }));
    const current = root.querySelectorAll('[aria-current="true"]');
    expect(current).to.have.length(1);
    expect(current[0]!.querySelector('th')!.textContent).to.equal('bob');
    expect(current[0]!.classList.contains('qb-lb__row--highlight')).to.equal(true);
  });

  it('names the score column and caption after the leaderboard type', () => {
    const root = parse(renderLeaderboardFragment([entry(1, 'alice', 10)], { leaderboardType: 'weekly' }));
    expect(root.querySelector('caption')!.textContent).to.equal('Leaderboard this week');
    const scoreHeader = root.querySelectorAll('thead th')[2]!;
    expect(scoreHeader.getAttribute('aria-label')).to.equal('Score this week');
    expect(scoreHeader.querySelector('.qb-lb__label')!.textContent).to.equal('Score this week');
    expect(scoreHeader.querySelector('abbr')!.textContent).to.equal('Week');
    expect(scoreHeader.querySelector('abbr')!.title).to.equal('Score this week');
  });

  it('says so when there are no entries, and stays accessible', async () => {
    const root = parse(renderLeaderboardFragment([], { totalUsers: 0 }));
    expect(root.querySelector('tbody')!.textContent).to.equal('No members on this leaderboard yet.');
    await expect(root).to.be.accessible();
  });

  it('renders every hostile account name as text, with no script, event attribute or URL', async () => {
    const entries = HOSTILE_NAMES.map((name, index) => entry(index + 1, name, 100 - index));
    const fragment = renderLeaderboardFragment(entries, { highlight: HOSTILE_NAMES[0] });
    const root = parse(fragment);
    // The thing tested is that no injected handler runs (an image's onerror fires a task later):
    // nothing happening has no event to wait on.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pwned()).to.equal(false);
    expect([...root.querySelectorAll('tbody th')].map((th) => th.textContent)).to.deep.equal([...HOSTILE_NAMES]);
    const elements = [root, ...root.querySelectorAll('*')];
    expect(elements.map((element) => element.localName).filter((name) => !ALLOWED_TAGS.has(name))).to.deep.equal([]);
    const attributes = elements.flatMap((element) => element.getAttributeNames());
    expect(attributes.filter((name) => !ALLOWED_ATTRIBUTES.has(name))).to.deep.equal([]);
    expect(root.querySelector('style')!.textContent).not.to.contain('url(');
  });

  it('keeps every selector of its style under the qb-lb prefix', () => {
    const root = parse(renderLeaderboardFragment([entry(1, 'alice', 10)]));
    const sheet = root.querySelector('style')!.sheet!;
    const selectors: string[] = [];
    const collect = (rules: CSSRuleList) => {
      for (const rule of rules) {
        // Commas inside :where(…) or :is(…) separate arguments, not selectors.
        if (rule instanceof CSSStyleRule) selectors.push(...rule.selectorText.split(/,(?![^(]*\))/));
        else if (rule instanceof CSSMediaRule) collect(rule.cssRules);
      }
    };
    collect(sheet.cssRules);
    expect(selectors.length).to.be.greaterThan(5);
    expect(selectors.filter((selector) => !selector.trim().startsWith('.qb-lb'))).to.deep.equal([]);
  });

  it('never cuts a header, on a phone, in the embed demo’s column or across the dashboard, in English and German', () => {
    const long = 'a-member-whose-name-goes-on-and-on-and-on-and-on';
    const entries = [entry(1, long, 1234567), entry(2, 'bob', 900)];
    for (const locale of ['en', 'de']) {
      for (const leaderboardType of ['score', 'weekly'] as const) {
        for (const width of [330, 490, 950]) {
          const where = `${locale}, ${leaderboardType}, ${width}px`;
          const box = document.createElement('div');
          box.style.inlineSize = `${width}px`;
          box.innerHTML = renderLeaderboardFragment(entries, { locale, leaderboardType });
          document.body.append(box);
          const cut = (cell: Element) => cell.scrollWidth > cell.clientWidth;
          const shown = [...box.querySelectorAll('thead th')].filter((cell) => getComputedStyle(cell).display !== 'none');
          expect(
            shown.filter(cut).map((cell) => cell.textContent),
            where,
          ).to.deep.equal([]);
          const root = box.querySelector('.qb-lb')!;
          expect(root.scrollWidth, `${where}: the table fits its box`).to.be.at.most(root.clientWidth);
          // The long name is cut where the column is narrow, and its title says it whole.
          const name = box.querySelector<HTMLElement>('tbody th')!;
          if (width < 950) expect(cut(name), where).to.equal(true);
          expect(name.querySelector<HTMLElement>('.qb-lb__name')!.title).to.equal(long);
          box.remove();
        }
      }
    }
  });

  it('does not move the host page outside its container', async () => {
    // A scrollbar from the start: engines with classic scrollbars (Firefox) would otherwise
    // narrow the page when the rows make it scroll, which is the page's doing, not the fragment's.
    document.documentElement.style.overflowY = 'scroll';
    try {
      const page = await fixture<HTMLDivElement>(html`
        <div>
          <p id="before">before</p>
          <div id="container"></div>
          <p id="after">after</p>
        </div>
      `);
      const container = page.querySelector('#container')!;
      const before = page.querySelector('#before')!.getBoundingClientRect();
      const entries = Array.from({ length: 30 }, (_, index) => entry(index + 1, `member-${index}`, 1000 - index));
      const template = document.createElement('template');
      template.innerHTML = renderLeaderboardFragment(entries);
      container.append(template.content);
      const containerBox = container.getBoundingClientRect();
      const after = page.querySelector('#after')!.getBoundingClientRect();
      expect(page.querySelector('#before')!.getBoundingClientRect().toJSON()).to.deep.equal(before.toJSON());
      expect(after.top).to.be.at.least(containerBox.bottom);
      expect(containerBox.width).to.equal(page.getBoundingClientRect().width);
      expect(getComputedStyle(page.querySelector('#after')!).fontFamily).to.equal(getComputedStyle(page).fontFamily);
    } finally {
      document.documentElement.style.removeProperty('overflow-y');
    }
  });
});

const ALLOWED_TAGS = new Set([
  'div',
  'style',
  'table',
  'caption',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'bdi',
  'p',
  'span',
  'abbr',
]);
const ALLOWED_ATTRIBUTES = new Set(['class', 'scope', 'colspan', 'aria-current', 'aria-label', 'lang', 'dir', 'title']);
