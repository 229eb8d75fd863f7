// The presenter's controls: everything a site would do behind the scenes
// (report progress, pay out coins, move data), done live in front of the audience.
import { clientFor, QuestboardError, subscribeToChanges, type QuestboardClient, type Transport } from '../src/client/index.js';
import {
  DEMO_APP_ID,
  DEMO_TREASURY,
  ENDORSEMENT_KINDS,
  FEATURED_MEMBERS,
  loggableTasks,
  TASK_IDS,
  type Dataset,
} from './dataset.js';
import { element, required, showResult } from './dom.js';
import { resetToSeed } from './seed.js';
import type { Viewer } from './viewer.js';

export interface ControlPanelOptions {
  transport: Transport;
  /** The site's own server key (read, write, ledger), as its backend would call. */
  site: QuestboardClient;
  admin: QuestboardClient;
  viewer: Viewer;
}

const MEMBER_LIST_LIMIT = 1000;
const HUGE_TRANSFER = 1_000_000;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs a control's action with its buttons disabled, reporting the outcome in its output. */
async function perform(control: HTMLElement, output: HTMLOutputElement, action: () => Promise<string>): Promise<void> {
  const buttons = [...control.querySelectorAll('button')];
  for (const button of buttons) button.disabled = true;
  showResult(output, 'pending', 'Working…');
  try {
    showResult(output, 'ok', await action());
  } catch (error) {
    showResult(output, 'error', messageOf(error));
  } finally {
    for (const button of buttons) button.disabled = false;
  }
}

/** A text field's value (a form field may also hold a File; these never do). */
function textField(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}

function formOutput(form: HTMLFormElement): HTMLOutputElement {
  return required<HTMLOutputElement>('output', form);
}

function setUpViewerPicker({ site, viewer }: ControlPanelOptions): { refreshMemberNames(): Promise<void> } {
  const form = required<HTMLFormElement>('#viewer-form');
  const input = required<HTMLInputElement>('#viewer-input');
  const datalist = required<HTMLDataListElement>('#member-names');
  const chips = required<HTMLElement>('#featured-members');
  input.value = viewer.name;

  const chipButtons = FEATURED_MEMBERS.map((name) => {
    const button = element('button', { type: 'button', title: name }, name);
    button.addEventListener('click', () => viewer.set(name));
    return button;
  });
  chips.replaceChildren(...chipButtons);

  const showViewer = (name: string) => {
    input.value = name;
    input.setCustomValidity('');
    for (const button of chipButtons) button.setAttribute('aria-pressed', String(button.textContent === name));
    for (const label of document.querySelectorAll('[data-viewer-name]')) {
      label.textContent = name;
      label.setAttribute('title', name);
    }
  };
  showViewer(viewer.name);
  viewer.subscribe(showViewer);

  const choose = async () => {
    const name = input.value;
    if (!name || name === viewer.name) return;
    try {
      await site.getUserInfo({ app_id: DEMO_APP_ID, account_name: name });
      viewer.set(name);
    } catch (error) {
      input.setCustomValidity(
        error instanceof QuestboardError && error.status === 404 ? `No member is called ${name}.` : messageOf(error),
      );
      input.reportValidity();
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void choose();
  });
  input.addEventListener('change', () => void choose());
  input.addEventListener('input', () => input.setCustomValidity(''));

  return {
    async refreshMemberNames() {
      const board = await site.getLeaderboard({ app_id: DEMO_APP_ID, limit: MEMBER_LIST_LIMIT });
      datalist.replaceChildren(
        ...board.leaderboard_users.map((entry) => {
          const option = document.createElement('option');
          option.value = entry.external_user.username;
          return option;
        }),
      );
    },
  };
}

/** The totals a log can move, for telling the presenter what just happened; zero for a member not yet known. */
async function standing(site: QuestboardClient, accountName: string): Promise<Standing> {
  try {
    const user = await site.getUserInfo({ app_id: DEMO_APP_ID, account_name: accountName });
    return { tasks: user.tasks_completed, challenges: user.challenges_completed, score: user.total_score };
  } catch (error) {
    if (error instanceof QuestboardError && error.status === 404) return { tasks: 0, challenges: 0, score: 0 };
    throw error;
  }
}

interface Standing {
  tasks: number;
  challenges: number;
  score: number;
}

/**
 * What a log did, in the presenter's words. A repeatable task completed starts again from 0, so
 * its progress alone ("0 of 1") would read as nothing done: the completion is said first.
 */
export function describeLog(
  progress: { quantity_completed: number; quantity_required: number },
  before: Standing,
  after: Standing,
  format: (value: number) => string,
): string {
  const done = format(progress.quantity_completed);
  const required = format(progress.quantity_required);
  if (after.tasks > before.tasks) {
    const challenge = after.challenges > before.challenges ? ' with its challenge' : '';
    const again =
      progress.quantity_completed < progress.quantity_required ? ` It can be done again: ${done} of ${required} now.` : '';
    return `completed${challenge}: +${format(after.score - before.score)} points.${again}`;
  }
  if (progress.quantity_completed >= progress.quantity_required)
    return `${done} of ${required}, completed before: no more points.`;
  return `${done} of ${required} so far, no points yet.`;
}

function setUpLogForm({ admin, site, viewer }: ControlPanelOptions, dataset: Dataset): void {
  const form = required<HTMLFormElement>('#log-form');
  const select = required<HTMLSelectElement>('#log-task');
  const groups = new Map<string, HTMLOptGroupElement>();
  for (const { challenge, task } of loggableTasks(dataset, new Date())) {
    let group = groups.get(challenge);
    if (!group) {
      group = element('optgroup', { label: challenge });
      groups.set(challenge, group);
      select.append(group);
    }
    const kind = [
      task.operator === 0 ? 'adds up' : 'one log',
      task.allowretry ? 'repeatable' : '',
      task.alloweditquantity ? 'log sets the amount' : '',
    ].filter(Boolean);
    group.append(element('option', { value: task.task_id }, `${task.name} (${kind.join(', ')})`));
  }

  // The presenter's opening move: alice ships a project (see the dataset's story).
  select.value = TASK_IDS.shipProject;

  const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 4 });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const taskName = select.selectedOptions[0]?.textContent ?? '';
    const accountName = viewer.name;
    void perform(form, formOutput(form), async () => {
      const before = await standing(site, accountName);
      const progress = await admin.admin.logTask({
        task_id: textField(data, 'task_id'),
        account_name: accountName,
        quantity: Number(data.get('quantity')),
      });
      const outcome = describeLog(progress, before, await standing(site, accountName), (value) => numbers.format(value));
      return `${accountName} · ${taskName.replace(/ \(.*\)$/, '')}: ${outcome}`;
    });
  });
}

/**
 * Endorsements through the page's own client, as its elements make them: the member key and the
 * viewer's token. The API takes the endorser from the token, and refuses anyone else.
 */
function setUpEndorseForm({ viewer }: ControlPanelOptions): void {
  const form = required<HTMLFormElement>('#endorse-form');
  const kinds = required<HTMLSelectElement>('#endorse-kind');
  kinds.replaceChildren(...ENDORSEMENT_KINDS.map((kind) => element('option', { value: kind }, kind)));
  const chosen = () => {
    const data = new FormData(form);
    return { app_id: DEMO_APP_ID, to_account: textField(data, 'to_account'), endorsement_id: textField(data, 'endorsement_id') };
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const endorsement = chosen();
    const from = viewer.name;
    void perform(form, formOutput(form), async () => {
      await (await clientFor()).endorseAccount(endorsement);
      return `${from} endorsed ${endorsement.to_account} as ${endorsement.endorsement_id}.`;
    });
  });
  // A visitor who rewrites the request cannot endorse in another member's name.
  required<HTMLButtonElement>('#endorse-as-other').addEventListener('click', () => {
    const endorsement = chosen();
    const impostor = FEATURED_MEMBERS.find((name) => name !== viewer.name && name !== endorsement.to_account)!;
    void perform(form, formOutput(form), async () => {
      try {
        await (await clientFor()).endorseAccount({ ...endorsement, from_account: impostor });
      } catch (error) {
        if (error instanceof QuestboardError && error.kind === 'forbidden') {
          throw new Error(`Refused (${error.status}) as ${impostor}: ${error.message}`);
        }
        throw error;
      }
      return `${impostor} endorsed ${endorsement.to_account}: the API should have refused it.`;
    });
  });
}

function setUpAirdropForm({ site, admin }: ControlPanelOptions): { refreshBalance(): Promise<void> } {
  const form = required<HTMLFormElement>('#airdrop-form');
  const balance = required<HTMLElement>('#treasury-balance');
  required<HTMLElement>('#treasury-account').textContent = DEMO_TREASURY;
  const coins = new Intl.NumberFormat(undefined, { maximumFractionDigits: 8 });

  const refreshBalance = async () => {
    const exported = await admin.admin.exportApp({ app_id: DEMO_APP_ID });
    const treasury = exported.apps?.[0]?.treasury;
    balance.textContent = treasury ? coins.format(Number(treasury.balance)) : 'no';
  };

  const send = (quantity: number) => {
    const toAddress = textField(new FormData(form), 'to_address');
    void perform(form, formOutput(form), async () => {
      try {
        const result = await site.airdrop({ to_address: toAddress, quantity });
        return `Sent ${coins.format(quantity)} coins to ${toAddress}. Transaction ${result.tx_id}`;
      } finally {
        await refreshBalance().catch(() => undefined);
      }
    });
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    send(Number(new FormData(form).get('quantity')));
  });
  required<HTMLButtonElement>('#airdrop-too-much').addEventListener('click', () => send(HUGE_TRANSFER));
  return { refreshBalance };
}

function downloadJson(fileName: string, value: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }));
  const link = element('a', { href: url, download: fileName });
  link.click();
  // The click has started the download by the time the next task runs.
  setTimeout(() => URL.revokeObjectURL(url));
}

function setUpDataControls(options: ControlPanelOptions): void {
  const { admin, transport } = options;
  const output = required<HTMLOutputElement>('#data-result');
  const panel = required<HTMLElement>('#data-controls');
  const fileInput = required<HTMLInputElement>('#import-file');

  const run = (action: () => Promise<string>) => perform(panel, output, action);

  required('#export-button').addEventListener(
    'click',
    () =>
      void run(async () => {
        const exported = await admin.admin.exportApp({ app_id: DEMO_APP_ID });
        const fileName = `questboard-${DEMO_APP_ID}-${new Date().toISOString().slice(0, 10)}.json`;
        downloadJson(fileName, exported);
        return `Exported ${exported.apps?.[0]?.users?.length ?? 0} members to ${fileName}.`;
      }),
  );

  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    void run(async () => {
      try {
        // Restoring a saved export: merging would replay its progress on top of the same progress.
        await admin.admin.importDataset(JSON.parse(await file.text()), { mode: 'replace' });
        return `Restored the apps in ${file.name}.`;
      } finally {
        fileInput.value = '';
      }
    });
  });

  required('#reset-button').addEventListener(
    'click',
    () =>
      void run(async () => {
        await resetToSeed(transport);
        return 'The guild is back to its seed.';
      }),
  );
}

/** `catalog`: the seed's challenges and tasks, for the task picker. */
export async function mountControlPanel(options: ControlPanelOptions, catalog: Dataset): Promise<void> {
  const picker = setUpViewerPicker(options);
  setUpLogForm(options, catalog);
  setUpEndorseForm(options);
  const airdrop = setUpAirdropForm(options);
  const refreshAll = () => {
    picker.refreshMemberNames().catch((error: unknown) => console.warn('Questboard demo: member list', error));
    airdrop.refreshBalance().catch((error: unknown) => console.warn('Questboard demo: treasury balance', error));
  };
  setUpDataControls(options);
  // An import (from this panel or another tab) changes the whole app; an airdrop its treasury.
  subscribeToChanges((change) => {
    if (change.scope !== 'members') refreshAll();
  });
  await Promise.all([picker.refreshMemberNames(), airdrop.refreshBalance()]);
}
