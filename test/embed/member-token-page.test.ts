// The embed's data-member-token: a page rendered for a signed-in member writes as that member,
// and one rendered for a visitor shows the site's sign-in link instead of the button.
import { expect } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { deleteDB } from 'idb';
import { QuestboardClient } from '../../src/client/client.js';
import { inPageTransport } from '../../src/client/local-in-page-transport.js';
import type { Dataset } from '../../src/api/schemas.js';
import { ADMIN_KEY, APP_ID, guildDataset } from '../components/support.js';
import { memberTokensFor, mint, siteKey, type SiteKey } from '../member-token-keys.js';
import { openFrame, openFrames } from './frames.js';

/** The page as the site renders it for the member `token` names, or for a visitor without one. */
async function openPage(token?: string): Promise<Document> {
  return (await openFrame('member-token', token)).contentDocument!;
}

async function endorsements(): Promise<string[][]> {
  const transport = inPageTransport();
  try {
    const exported = await new QuestboardClient({ transport, apiKey: ADMIN_KEY }).admin.exportApp({ app_id: APP_ID });
    return (exported.apps?.[0]?.endorsements ?? []).map((e) => [e.from_account, e.to_account]);
  } finally {
    await transport.close();
  }
}

describe("the embed's data-member-token", () => {
  let key: SiteKey;

  before(async () => {
    const available = await fetch('/dist/questboard.js', { method: 'HEAD' });
    expect(available.ok, 'run npm run build before the embed tests').to.equal(true);
    key = await siteKey();
    // The page's in-page handler uses this origin's default database.
    const seeder = inPageTransport();
    const admin = new QuestboardClient({ transport: seeder, apiKey: ADMIN_KEY });
    await admin.admin.importDataset(guildDataset(), { mode: 'replace' });
    await admin.admin.importDataset(memberTokensFor(key) as Dataset);
    await seeder.close();
  });

  afterEach(() => {
    for (const frame of openFrames.splice(0)) frame.remove();
  });

  after(async () => {
    await deleteDB('questboard');
    await deleteDB('questboard-remote');
  });

  it('writes as the member the token names: the button needs no from', async () => {
    const doc = await openPage(await mint(key, { sub: 'carol' }));
    const element = doc.querySelector('qb-endorse-button')!;
    await waitUntil(() => element.shadowRoot?.querySelector('button:not([disabled])'), 'no enabled button', {
      timeout: 10_000,
    });
    element.shadowRoot!.querySelector('button')!.click();
    await waitUntil(() => element.shadowRoot!.querySelector('button.done'), 'never endorsed', { timeout: 10_000 });
    expect(await endorsements()).to.deep.equal([['carol', 'bob']]);
  });

  it("shows the site's sign-in link where no token was rendered", async () => {
    const doc = await openPage();
    const element = doc.querySelector('qb-endorse-button')!;
    await waitUntil(() => element.shadowRoot?.querySelector('[part~="sign-in"]'), 'no sign-in state', { timeout: 10_000 });
    expect(element.shadowRoot!.querySelector('button')).to.equal(null);
    const slot = element.shadowRoot!.querySelector<HTMLSlotElement>('slot[name="sign-in"]')!;
    expect(slot.assignedElements().map((link) => link.textContent)).to.deep.equal(['Sign in to endorse bob']);
  });
});
