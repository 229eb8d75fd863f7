import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import '../../src/components/qb-task-progress/qb-task-progress.js';
import type { QbTaskProgress } from '../../src/components/qb-task-progress/qb-task-progress.js';
import { HOSTILE_NAMES, pwned } from './hostile-names.js';
import { POST_TASK_ID, PROFILE_TASK_ID, guildDataset, injected, useApi, shadow } from './support.js';

function progress(taskId: string, name: string) {
  return fixture<QbTaskProgress>(html`<qb-task-progress task-id=${taskId} account-name=${name}></qb-task-progress>`);
}

const settled = (element: QbTaskProgress) =>
  waitUntil(() => shadow(element).querySelector('.task, .qb-empty, .qb-error'), 'progress never settled');

describe('<qb-task-progress>', () => {
  const api = useApi(guildDataset([...HOSTILE_NAMES]));

  it('shows a loading state while the request runs', async () => {
    api.hold();
    const element = await progress(POST_TASK_ID, 'alice');
    expect(shadow(element).querySelector('[role="status"]')!.textContent).to.equal('Loading task progress…');
    await expect(element).to.be.accessible();
    api.release();
    await settled(element);
  });

  it('is a real progress bar labelled "2 of 3"', async () => {
    const element = await progress(POST_TASK_ID, 'alice');
    await settled(element);
    const root = shadow(element);
    const bar = root.querySelector('[role="progressbar"]')!;
    expect(bar.getAttribute('aria-valuemin')).to.equal('0');
    expect(bar.getAttribute('aria-valuemax')).to.equal('3');
    expect(bar.getAttribute('aria-valuenow')).to.equal('2');
    expect(bar.getAttribute('aria-valuetext')).to.equal('2 of 3');
    expect(root.getElementById(bar.getAttribute('aria-labelledby')!)!.textContent).to.equal('Post 3 times');
    expect(root.querySelector('.label')!.textContent).to.equal('2 of 3');
    expect(element.complete).to.equal(false);
    await expect(element).to.be.accessible();
  });

  it('shows the completed state', async () => {
    const element = await progress(PROFILE_TASK_ID, 'alice');
    await settled(element);
    const root = shadow(element);
    expect(element.complete).to.equal(true);
    expect(root.querySelector('.task')!.classList.contains('complete')).to.equal(true);
    expect(root.querySelector('.label')!.textContent).to.equal('✓ Completed');
    expect(root.querySelector('[role="progressbar"]')!.getAttribute('aria-valuetext')).to.equal('1 of 1, completed');
    await expect(element).to.be.accessible();
  });

  it('advances when the member logs progress', async () => {
    const element = await progress(POST_TASK_ID, 'carol');
    await settled(element);
    expect(shadow(element).querySelector('.label')!.textContent).to.equal('0 of 3');
    await api.admin.admin.logTask({ task_id: POST_TASK_ID, account_name: 'carol', quantity: 1 });
    await waitUntil(() => shadow(element).querySelector('.label')!.textContent === '1 of 3', 'never refreshed');
    await api.admin.admin.logTask({ task_id: POST_TASK_ID, account_name: 'carol', quantity: 2 });
    await waitUntil(() => element.complete, 'never completed');
  });

  it('asks for a task when attributes are missing', async () => {
    const element = await fixture<QbTaskProgress>(html`<qb-task-progress account-name="alice"></qb-task-progress>`);
    expect(shadow(element).querySelector('.qb-empty')!.textContent).to.equal('No task selected.');
    await expect(element).to.be.accessible();
  });

  it('says a member without activity has not started', async () => {
    const element = await progress(POST_TASK_ID, 'stranger');
    await settled(element);
    expect(shadow(element).querySelector('.qb-empty')!.textContent).to.equal('Not started yet.');
    await expect(element).to.be.accessible();
  });

  it('shows a readable error for an unknown task', async () => {
    const element = await progress('99999999-9999-4999-8999-999999999999', 'alice');
    await settled(element);
    expect(shadow(element).querySelector('[role="alert"]')!.textContent).to.match(
      /^Could not load task progress: Task not found/,
    );
    await expect(element).to.be.accessible();
  });

  it('renders hostile account names without running them', async () => {
    for (const name of HOSTILE_NAMES) {
      const element = await progress(POST_TASK_ID, name);
      await settled(element);
      expect(shadow(element).querySelector('.label')!.textContent).to.equal('0 of 3');
      expect(injected(shadow(element))).to.deep.equal([]);
    }
    expect(pwned()).to.equal(false);
  });
});
