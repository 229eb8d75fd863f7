// <qb-quest-task> (docs/quests.md) inside <qb-challenge app-id>: the actions of tasks members
// complete themselves, over the in-page handler and IndexedDB.
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/qb-challenge/qb-challenge.js';
import '../../src/components/lazy.js';
import type { QbChallenge } from '../../src/components/qb-challenge/qb-challenge.js';
import type { QbQuestTask } from '../../src/components/qb-quest-task/qb-quest-task.js';
import type { Dataset } from '../../src/api/schemas.js';
import { loadCatalogChunk } from '../../src/i18n/catalog-chunks.js';
import { setCatalogLoader } from '../../src/i18n/page-catalogs.js';
import { CALLBACK_TASK, CODE_TASK, QUEST_ID, REVIEW_TASK, questDataset } from './quest-dataset.js';
import { configure } from '../../src/client/config.js';
import { MEMBER_KEY, memberTokensFor, mint, siteKey } from '../member-token-keys.js';
import { APP_ID, API_KEY, useApi, shadow } from './support.js';

// Refusals are shown in the page's language: the catalogs load as the ES modules load them.
setCatalogLoader(loadCatalogChunk);

async function quest(member: string, lang = 'en') {
  const wrapper = await fixture<HTMLDivElement>(
    html`<div lang=${lang}><qb-challenge app-id=${APP_ID} challenge-id=${QUEST_ID} account-name=${member}></qb-challenge></div>`,
  );
  const challenge = wrapper.querySelector('qb-challenge')!;
  await waitUntil(() => actionOf(challenge, CODE_TASK)?.shadowRoot?.querySelector('form'), 'the quest actions never showed');
  return challenge;
}

const actionOf = (challenge: QbChallenge, taskId: string) =>
  shadow(challenge).querySelector<QbQuestTask>(`qb-quest-task[task-id="${taskId}"]`);
const progressLabel = (challenge: QbChallenge, taskId: string) =>
  shadow(challenge).querySelector(`qb-task-progress[task-id="${taskId}"]`)?.shadowRoot?.querySelector('.label')?.textContent ??
  null;
const part = (action: QbQuestTask, name: string) => shadow(action).querySelector(`[part="${name}"]`);
const said = (action: QbQuestTask, name = 'message') => part(action, name)?.textContent?.trim() ?? '';

async function typeAndSend(action: QbQuestTask, text: string) {
  shadow(action).querySelector('input')!.focus();
  await sendKeys({ type: text });
  await sendKeys({ press: 'Enter' });
}

describe('<qb-quest-task>', () => {
  const api = useApi(questDataset());

  it('shows an action beside each quest task, with a labelled field', async () => {
    const challenge = await quest('alice');
    const code = actionOf(challenge, CODE_TASK)!;
    const input = shadow(code).querySelector('input')!;
    expect(shadow(code).querySelector(`label[for="${input.id}"]`)!.textContent).to.equal('Code');
    expect(part(code, 'form')!.getAttribute('aria-label')).to.equal('Say the code');
    expect(part(code, 'message')!.getAttribute('role')).to.equal('alert');
    expect(shadow(actionOf(challenge, REVIEW_TASK)!).querySelector('label')!.textContent).to.equal(
      'A link or a few words on what you did',
    );
    const check = actionOf(challenge, CALLBACK_TASK)!;
    expect(shadow(check).querySelector('input')).to.equal(null);
    expect(part(check, 'button')!.textContent!.trim()).to.equal('Check');
    // Tasks the site completes itself get none.
    expect(shadow(challenge).querySelectorAll('qb-quest-task').length).to.equal(3);
    await expect(challenge).to.be.accessible();
  });

  it('completes a task with the right code, and its progress shows it at once', async () => {
    const challenge = await quest('dora');
    await waitUntil(() => progressLabel(challenge, CODE_TASK) !== null || shadow(challenge).querySelector('[part="empty"]'));
    const code = actionOf(challenge, CODE_TASK)!;
    await typeAndSend(code, ' RiverSide ');
    await waitUntil(() => said(code) === 'Task completed.', 'never said completed');
    await waitUntil(() => progressLabel(challenge, CODE_TASK) === '✓ Completed', 'the progress never showed it');
    expect(shadow(code).querySelector('input')!.value).to.equal('');
    await expect(challenge).to.be.accessible();
  });

  it('says a wrong code is wrong, in the page’s language, and counts nothing', async () => {
    const challenge = await quest('erin', 'de');
    const code = actionOf(challenge, CODE_TASK)!;
    await typeAndSend(code, 'lakeside');
    await waitUntil(() => said(code) !== '', 'never answered');
    expect(said(code)).to.equal('Das Senden ist fehlgeschlagen: Das ist nicht die richtige Antwort.');
    expect(shadow(code).querySelector('input')!.getAttribute('aria-invalid')).to.equal('false');
    const progress = await api.member.getTaskProgress({ task_id: CODE_TASK, account_name: 'erin' });
    expect(progress.quantity_completed).to.equal(0);
  });

  it('says when too many wrong codes may be tried again, in words', async () => {
    const challenge = await quest('fay', 'de');
    for (let wrong = 0; wrong < 5; wrong++) {
      await api.member
        .submitTask({ app_id: APP_ID, task_id: CODE_TASK, account_name: 'fay', answer: `guess ${wrong}` })
        .catch(() => {});
    }
    const code = actionOf(challenge, CODE_TASK)!;
    await typeAndSend(code, 'riverside');
    await waitUntil(() => said(code) !== '', 'never answered');
    expect(said(code)).to.equal(
      'Das Senden ist fehlgeschlagen: Zu viele falsche Antworten; versuche es später noch einmal. Sie können es in 10 Minuten erneut versuchen.',
    );
  });

  it('asks for a code before sending one', async () => {
    const challenge = await quest('alice');
    const code = actionOf(challenge, CODE_TASK)!;
    const sentBefore = api.sent.length;
    await typeAndSend(code, '');
    await waitUntil(() => said(code) === 'Fill this in first.');
    expect(shadow(code).querySelector('input')!.getAttribute('aria-invalid')).to.equal('true');
    expect(shadow(code).activeElement).to.equal(shadow(code).querySelector('input'));
    expect(api.sent.length).to.equal(sentBefore);
  });

  it('sends a proof for review from the keyboard alone: pending, then approved after a review', async () => {
    const challenge = await quest('gus');
    const review = actionOf(challenge, REVIEW_TASK)!;
    // Tab from the code task's button into the review task's field, as a keyboard user goes.
    (part(actionOf(challenge, CODE_TASK)!, 'button') as HTMLButtonElement).focus();
    await sendKeys({ press: 'Tab' });
    expect(shadow(review).activeElement).to.equal(shadow(review).querySelector('input'));
    await sendKeys({ type: 'https://example.org/my-build' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => said(review, 'review') === 'Pending review', 'never said pending');
    expect(part(review, 'review')!.getAttribute('role')).to.equal('status');
    // One pending submission at a time: nothing more to send until it is decided.
    expect(shadow(review).querySelector('input, button')).to.equal(null);
    await expect(challenge).to.be.accessible();

    const { submissions } = await api.admin.admin.submissions({ app_id: APP_ID, status: 'pending' });
    const mine = submissions.find((submission) => submission.account_name === 'gus')!;
    expect(mine.text).to.equal('https://example.org/my-build');
    await api.admin.admin.review({ submission_id: mine.submission_id, decision: 'approve' });
    await waitUntil(() => said(review, 'review') === 'Approved', 'never said approved');
    await waitUntil(() => progressLabel(challenge, REVIEW_TASK) === '✓ Completed', 'the progress never showed it');
  });

  it('shows a rejection with the reviewer’s reason, and lets the member send again', async () => {
    await api.member.submitTask({ app_id: APP_ID, task_id: REVIEW_TASK, account_name: 'bob', text: 'a blurry photo' });
    const { submissions } = await api.admin.admin.submissions({ app_id: APP_ID, status: 'pending' });
    const bobs = submissions.find((submission) => submission.account_name === 'bob')!;
    await api.admin.admin.review({ submission_id: bobs.submission_id, decision: 'reject', reason: 'The photo is too blurry.' });
    const challenge = await quest('bob');
    const review = actionOf(challenge, REVIEW_TASK)!;
    await waitUntil(() => said(review, 'review') !== '', 'never showed the review');
    expect(said(review, 'review')).to.equal('Rejected: The photo is too blurry.');
    expect(shadow(review).querySelector('input')).not.to.equal(null);
    await expect(challenge).to.be.accessible();
  });

  it('says in the page’s language that only a server checks with the site', async () => {
    const challenge = await quest('carol', 'fr');
    const check = actionOf(challenge, CALLBACK_TASK)!;
    (part(check, 'button') as HTMLButtonElement).click();
    await waitUntil(() => said(check) !== '', 'never answered');
    expect(said(check)).to.equal('Impossible d’envoyer\u00a0: Seul un serveur Questboard peut vérifier cette tâche.');
  });

  it('asks a page with neither a member nor account-name to sign in', async () => {
    const action = await fixture<QbQuestTask>(
      html`<qb-quest-task app-id=${APP_ID} task-id=${CODE_TASK} kind="code" task-name="Say the code"></qb-quest-task>`,
    );
    await waitUntil(() => part(action, 'sign-in'), 'never asked to sign in');
    expect(said(action, 'sign-in')).to.equal('Sign in to complete this task.');
  });

  it('sends as the signed-in member where the page names none (a member key and their token)', async () => {
    const key = await siteKey();
    await api.admin.admin.importDataset(memberTokensFor(key) as Dataset);
    configure({ apiKey: MEMBER_KEY, memberToken: () => mint(key, { sub: 'carol' }) });
    try {
      const action = await fixture<QbQuestTask>(
        html`<qb-quest-task app-id=${APP_ID} task-id=${CODE_TASK} kind="code" task-name="Say the code"></qb-quest-task>`,
      );
      await waitUntil(() => shadow(action).querySelector('input'), 'never showed the form');
      await typeAndSend(action, 'riverside');
      await waitUntil(() => said(action) === 'Task completed.', 'never said completed');
      const progress = await api.member.getTaskProgress({ task_id: CODE_TASK, account_name: 'carol' });
      expect(progress.quantity_completed).to.equal(1);
    } finally {
      configure({ apiKey: API_KEY, memberToken: undefined });
    }
  });
});
