// The states every data element shares, one suite for all five (they render them through
// QueryController.render): idle without its inputs, loading, a failure that says so with a
// working "Try again", and the data. axe passes in each.
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import type { TemplateResult } from 'lit';
import '../../src/components/index.js';
import '../../src/components/lazy.js';
import { APP_ID, CHALLENGE_ID, POST_TASK_ID, useApi, shadow } from './support.js';

interface Case {
  tag: string;
  element: TemplateResult;
  /** The same element without a required input. */
  idle: TemplateResult;
  idleText: string;
  subject: string;
  /** What only the loaded element shows. */
  readySelector: string;
}

const CASES: Case[] = [
  {
    tag: 'qb-leaderboard',
    element: html`<qb-leaderboard app-id=${APP_ID}></qb-leaderboard>`,
    idle: html`<qb-leaderboard></qb-leaderboard>`,
    idleText: 'No leaderboard selected.',
    subject: 'the leaderboard',
    readySelector: 'table',
  },
  {
    tag: 'qb-user-card',
    element: html`<qb-user-card app-id=${APP_ID} account-name="alice"></qb-user-card>`,
    idle: html`<qb-user-card app-id=${APP_ID}></qb-user-card>`,
    idleText: 'No member selected.',
    subject: 'alice’s progress',
    readySelector: '.card',
  },
  {
    tag: 'qb-task-progress',
    element: html`<qb-task-progress task-id=${POST_TASK_ID} account-name="alice"></qb-task-progress>`,
    idle: html`<qb-task-progress account-name="alice"></qb-task-progress>`,
    idleText: 'No task selected.',
    subject: 'task progress',
    readySelector: '.task',
  },
  {
    tag: 'qb-challenge',
    element: html`<qb-challenge challenge-id=${CHALLENGE_ID} account-name="alice"></qb-challenge>`,
    idle: html`<qb-challenge></qb-challenge>`,
    idleText: 'No challenge selected.',
    subject: 'the challenge',
    readySelector: '.card',
  },
  {
    tag: 'qb-achievements',
    element: html`<qb-achievements app-id=${APP_ID} account-name="alice"></qb-achievements>`,
    idle: html`<qb-achievements app-id=${APP_ID}></qb-achievements>`,
    idleText: 'No member selected.',
    subject: 'alice’s achievements',
    readySelector: '.card',
  },
  {
    tag: 'qb-user-highlights',
    element: html`<qb-user-highlights app-id=${APP_ID} account-name="alice"></qb-user-highlights>`,
    idle: html`<qb-user-highlights app-id=${APP_ID}></qb-user-highlights>`,
    idleText: 'No member selected.',
    subject: 'alice’s achievements',
    readySelector: '.row',
  },
];

describe('states every data element shares', () => {
  const api = useApi();

  for (const { tag, element, idle, idleText, subject, readySelector } of CASES) {
    describe(`<${tag}>`, () => {
      it('says what it needs while an input is missing', async () => {
        const shown = await fixture<HTMLElement>(idle);
        await waitUntil(() => shadow(shown).querySelector('[part~="empty"]'), 'no idle state');
        expect(shadow(shown).querySelector('[part~="empty"]')!.textContent).to.equal(idleText);
        await expect(shown).to.be.accessible();
      });

      it('says it is loading, as a status', async () => {
        api.hold();
        let shown: HTMLElement;
        try {
          shown = await fixture<HTMLElement>(element);
          await waitUntil(() => shadow(shown).querySelector('[role="status"][part~="status"]'), 'no loading state');
          expect(shadow(shown).querySelector('[role="status"][part~="status"]')!.textContent).to.equal(`Loading ${subject}…`);
          await expect(shown).to.be.accessible();
        } finally {
          api.release();
        }
        // Done loading before the next test: an identical request still running would be shared with it.
        await waitUntil(() => shadow(shown).querySelector(readySelector), 'never loaded');
      });

      it('says what failed, as an alert, and "Try again" loads it', async () => {
        api.failNext();
        const shown = await fixture<HTMLElement>(element);
        await waitUntil(() => shadow(shown).querySelector('[part~="error"]'), 'no error state');
        expect(shadow(shown).querySelector('[role="alert"]')!.textContent).to.equal(
          `Could not load ${subject}: the Questboard service is unreachable. Try again.`,
        );
        await expect(shown).to.be.accessible();
        shadow(shown).querySelector<HTMLButtonElement>('[part~="retry-button"]')!.click();
        await waitUntil(() => shadow(shown).querySelector(readySelector), 'retry never loaded');
        expect(shadow(shown).querySelector('[part~="error"]')).to.equal(null);
      });
    });
  }
});
