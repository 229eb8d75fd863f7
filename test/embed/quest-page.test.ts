// The real dist/questboard.js (run `npm run build` first) loading <qb-quest-task> on demand from
// dist/elements/ for a <qb-challenge> of a quest, under a strict CSP with Trusted Types.
import { expect } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { deleteDB } from 'idb';
import { QuestboardClient } from '../../src/client/client.js';
import { inPageTransport } from '../../src/client/local-in-page-transport.js';
import { CODE_TASK, QUEST_ID, questDataset } from '../components/quest-dataset.js';
import { ADMIN_KEY } from '../components/support.js';
import { openFrame, openFrames } from './frames.js';

type PageWindow = Window & typeof globalThis & { pageRecord: { violations: string[] } };

describe('the embed loading a quest’s actions on demand', () => {
  before(async () => {
    // The page shares this origin's default database with the in-page handler.
    const seeder = inPageTransport();
    await new QuestboardClient({ transport: seeder, apiKey: ADMIN_KEY }).admin.importDataset(questDataset(), { mode: 'replace' });
    await seeder.close();
  });

  after(async () => {
    for (const frame of openFrames.splice(0)) frame.remove();
    await deleteDB('questboard');
    await deleteDB('questboard-remote');
  });

  it('loads dist/elements/qb-quest-task.js once, and its code completes the task', async () => {
    const frame = await openFrame('quest');
    const win = frame.contentWindow as PageWindow;
    const challenge = frame.contentDocument!.querySelector('qb-challenge')!;
    expect(challenge.getAttribute('challenge-id')).to.equal(QUEST_ID);
    const action = () => challenge.shadowRoot?.querySelector(`qb-quest-task[task-id="${CODE_TASK}"]`);
    await waitUntil(() => action()?.shadowRoot?.querySelector('input'), 'the quest task never loaded', { timeout: 10_000 });
    const loaded = win.performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/elements/'))
      .map((entry) => new URL(entry.name).pathname);
    expect(loaded).to.deep.equal(['/dist/elements/qb-quest-task.js']);

    const root = action()!.shadowRoot!;
    root.querySelector('input')!.value = 'riverside';
    root.querySelector('form')!.requestSubmit();
    await waitUntil(() => root.querySelector('[part="message"]')!.textContent === 'Task completed.', 'never completed');
    const progress = challenge.shadowRoot!.querySelector(`qb-task-progress[task-id="${CODE_TASK}"]`)!;
    await waitUntil(() => progress.shadowRoot?.querySelector('.label')?.textContent === '✓ Completed', 'progress not updated');
    expect(win.pageRecord.violations).to.deep.equal([]);
  });
});
