// The account-name profile (docs/rules.md "Members"), through the handler at
// every place a name enters: query parameters, bodies, `around` and imports.
import { expect } from '@open-wc/testing';
import { GUIDS, WEDNESDAY, localApi, seed } from './support.js';

const FORMAT = 'must not contain format characters (zero-width, soft hyphen, bidi controls)';

describe('account names', () => {
  let api: ReturnType<typeof localApi>;
  const q = encodeURIComponent;
  const connect = (account_name: string) =>
    api.call('POST', '/v1/connect_social', { body: { app_id: 'guild', account_name, twitter_name: 'x' } });
  const info = (account_name: string) => api.call('GET', `/v1/get_userinfo?app_id=guild&account_name=${q(account_name)}`);
  const board = async (query = '') => (await api.call('GET', `/v1/get_leaderboard?app_id=guild${query}`)).body;
  const names = (body: any): string[] => body.leaderboard_users.map((entry: any) => entry.external_user.username);

  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
  });
  afterEach(() => api.close());

  it('refuses each broken rule with a message naming it, and keeps the name off the board', async () => {
    const refused: [string, string][] = [
      ['', 'must not be empty'],
      ['\ud800', 'must not contain unpaired surrogates'],
      ['al\udc00ice', 'must not contain unpaired surrogates'],
      ['tab\there', 'must not contain control characters'],
      ['nul\u0000', 'must not contain control characters'],
      [' ', 'must not be only white space'],
      ['\u3000\u00a0 ', 'must not be only white space'],
      ['\u3164', 'must not be only white space'],
      ['\u200b', FORMAT],
      ['\u00ad', FORMAT],
      ['alice\u200b', FORMAT],
      ['al\u00adice', FORMAT],
      ['ali\u200dce', FORMAT],
      ['\u{1F469}\u200d', FORMAT],
      ['\u200d\u{1F4BB}', FORMAT],
      ['a\u{E0067}', FORMAT],
      ['\ufeffalice', FORMAT],
      ['\u202eecila', FORMAT],
      ['\u2066alice\u2069', FORMAT],
      ['a'.repeat(65), 'must be at most 64 characters'],
      ['alice ', 'must not start or end with white space'],
      ['\u00a0alice', 'must not start or end with white space'],
      ['alice\u3164', 'must not start or end with white space'],
    ];
    const before = await board();
    for (const [name, rule] of refused) {
      const answer = await connect(name);
      expect(answer.status, JSON.stringify(name)).to.equal(400);
      expect(answer.body).to.deep.equal({ is_valid: false, message: `account_name: ${rule}.` });
    }
    expect(await board()).to.deep.equal(before);
  });

  it('refuses such a name in every query parameter and body field that takes one', async () => {
    const name = 'alice\u200b';
    const answers = {
      'get_userinfo account_name': await info(name),
      'get_task_progress account_name': await api.call(
        'GET',
        `/v1/get_task_progress?task_id=${GUIDS.posts}&account_name=${q(name)}`,
      ),
      'get_leaderboard around': await api.call('GET', `/v1/get_leaderboard?app_id=guild&around=${q(name)}`),
      'endorse_account from_account': await api.call('POST', '/v1/endorse_account', {
        body: { app_id: 'guild', from_account: name, to_account: 'bob', endorsement_id: 'e' },
      }),
      'endorse_account to_account': await api.call('POST', '/v1/endorse_account', {
        body: { app_id: 'guild', from_account: 'bob', to_account: name, endorsement_id: 'e' },
      }),
      'admin/log_task account_name': await api.call('POST', '/v1/admin/log_task', {
        body: { task_id: GUIDS.posts, account_name: name, quantity: 1 },
      }),
    };
    const fields = {
      'get_userinfo account_name': 'account_name',
      'get_task_progress account_name': 'account_name',
      'get_leaderboard around': 'around',
      'endorse_account from_account': 'from_account',
      'endorse_account to_account': 'to_account',
      'admin/log_task account_name': 'account_name',
    };
    for (const [where, answer] of Object.entries(answers)) {
      expect(answer.status, where).to.equal(400);
      expect(answer.body.message, where).to.equal(`${fields[where as keyof typeof fields]}: ${FORMAT}.`);
    }
  });

  it('refuses such a name in an import, in users, progress and endorsements, and imports nothing', async () => {
    const imports = {
      'users.0.account_name': { users: [{ account_name: '\ud800' }] },
      'progress.0.account_name': { progress: [{ task_id: GUIDS.posts, account_name: 'bob\u202e', quantity: 1 }] },
      'endorsements.0.from_account': { endorsements: [{ from_account: '\u00ad', to_account: 'bob', endorsement_id: 'e' }] },
      'endorsements.0.to_account': { endorsements: [{ from_account: 'bob', to_account: ' ', endorsement_id: 'e' }] },
    };
    const before = await board();
    for (const [path, app] of Object.entries(imports)) {
      const answer = await api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'guild', ...app }] } });
      expect(answer.status, path).to.equal(400);
      expect(answer.body.message, path).to.match(new RegExp(`^apps\\.0\\.${path.replace(/\./g, '\\.')}: must `));
    }
    expect(await board()).to.deep.equal(before);
  });

  it('keeps names in NFC: e + combining acute and é are one member, shown once on the board', async () => {
    const decomposed = 'Zoe\u0301';
    const composed = 'Zo\u00e9';
    expect((await connect(decomposed)).status).to.equal(200);
    expect((await connect(composed)).status).to.equal(200);
    const user = await info(decomposed);
    expect(user.status).to.equal(200);
    expect(user.body.account_name).to.equal(composed);
    expect((await info(composed)).body.id).to.equal(user.body.id);

    expect(
      (await api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.checkIn, account_name: decomposed, quantity: 1 } }))
        .status,
    ).to.equal(200);
    expect((await info(composed)).body.total_score).to.equal(5);
    const endorsed = await api.call('POST', '/v1/endorse_account', {
      body: { app_id: 'guild', from_account: composed, to_account: decomposed, endorsement_id: 'self' },
    });
    expect(endorsed.status, 'endorsing oneself under the other spelling').to.equal(400);

    const all = await board('&limit=1000');
    expect(all.total_users).to.equal(5);
    expect(names(all).filter((name) => name.normalize('NFD') === decomposed)).to.deep.equal([composed]);
    expect(names(await board(`&around=${q(decomposed)}&limit=1`))).to.deep.equal([composed]);
    const fragment = await board(`&widget_response=html&around=${q(decomposed)}&limit=1`);
    expect(fragment.html).to.contain(composed).and.not.contain(decomposed);
  });

  it('normalises names in an import, so users, progress and endorsements meet', async () => {
    const answer = await api.call('POST', '/v1/admin/import', {
      body: {
        apps: [
          {
            app_id: 'guild',
            users: [{ account_name: 'Ame\u0301lie' }, { account_name: 'Ame\u0301lie' }],
            progress: [{ task_id: GUIDS.checkIn, account_name: 'Am\u00e9lie', quantity: 1 }],
            endorsements: [{ from_account: 'alice', to_account: 'Am\u00e9lie', endorsement_id: 'welcome' }],
          },
        ],
      },
    });
    expect(answer.status, answer.text).to.equal(200);
    const user = (await info('Am\u00e9lie')).body;
    expect(user).to.include({ account_name: 'Am\u00e9lie', total_score: 5, current_xp: 10 });
    expect((await board('&limit=1000')).total_users).to.equal(5);
  });

  it('counts the 64 characters after normalisation, and keeps spaces and emoji inside a name', async () => {
    const long = 'e\u0301'.repeat(64);
    expect((await connect(long)).status).to.equal(200);
    expect((await info(long)).body.account_name).to.equal('\u00e9'.repeat(64));
    // Emoji drawn with a joiner or tags (the demo guild has 👩‍💻 Priya) keep their format characters.
    const scotland = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
    for (const name of [
      'Ada Lovelace',
      '🦊 fox',
      'ω\u0308',
      '❤\ufe0f',
      '👩\u200d💻 Priya',
      '👩🏽\u200d💻',
      `${scotland} Isla`,
      `Isla ${scotland}`,
    ]) {
      expect((await connect(name)).status, name).to.equal(200);
      expect((await info(name)).body.account_name).to.equal(name.normalize('NFC'));
    }
  });
});
