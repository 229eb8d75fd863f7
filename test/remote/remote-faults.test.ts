// Faults the reference server cannot produce (a proxy's HTML page, a server of another
// API, an answer that never comes), answered at the page by msw through the injected fetch.
import { expect } from '@open-wc/testing';
import { delay, getResponse, http, HttpResponse, type RequestHandler } from 'msw';
import { remoteFirst, type RemoteFirst } from '../../src/remote/remote-first.js';
import { deleteDatabase } from './local-handler.js';

const REMOTE = 'https://remote.questboard.test';
const REMOTE_DB = 'qb-test-remote-faults';
const userInfo = () =>
  new Request('https://questboard.invalid/v1/get_userinfo?app_id=guild&account_name=alice', {
    headers: { Authorization: 'Bearer pk_guild' },
  });
const endorsement = (headers: Record<string, string> = {}) =>
  new Request('https://questboard.invalid/v1/endorse_account', {
    method: 'POST',
    headers: { Authorization: 'Bearer pk_guild', 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ app_id: 'guild', from_account: 'bob', to_account: 'alice', endorsement_id: 'helpful' }),
  });
const goodUserInfo = {
  account_name: 'alice',
  id: '0b6c5f8e-3c1a-4f5e-9a43-1d2e3f4a5b6c',
  is_active: true,
  challenges_completed: 0,
  tasks_completed: 0,
  tasks_logged: 0,
  total_achievements: 0,
  total_score: 0,
  challenge_score_monthly: 0,
  challenge_score_weekly: 0,
  current_xp: 5,
  current_level: 1,
  next_level_xp: 100,
  message: null,
  is_valid: true,
};

describe('remote-first strategy with a faulty remote', () => {
  let handlers: RequestHandler[];
  let strategy: RemoteFirst;
  const localAnswers: Request[] = [];

  beforeEach(async () => {
    handlers = [];
    strategy = remoteFirst(
      async (request) => {
        localAnswers.push(request);
        return new Response('{}');
      },
      {
        databaseName: REMOTE_DB,
        fetch: async (request) => {
          const response = await getResponse(handlers, request);
          if (response === undefined || response.type === 'error') throw new TypeError('Failed to fetch');
          return response;
        },
      },
    );
    await strategy.configure({ remote: REMOTE, timeoutMs: 100 });
  });

  afterEach(async () => {
    strategy.close();
    await deleteDatabase(REMOTE_DB);
    expect(localAnswers).to.deep.equal([]);
  });

  const remoteAnswers = (resolver: Parameters<typeof http.get>[1]) => {
    handlers = [http.get(`${REMOTE}/v1/get_userinfo`, resolver)];
  };

  it('sends the caller’s key to <remote>/v1/… with the query unchanged', async () => {
    let seen: Request | undefined;
    remoteAnswers(({ request }) => {
      seen = request;
      return HttpResponse.json(goodUserInfo);
    });
    const answer = await strategy.handle(userInfo());
    expect(answer.status).to.equal(200);
    expect(seen!.url).to.equal(`${REMOTE}/v1/get_userinfo?app_id=guild&account_name=alice`);
    expect(seen!.headers.get('Authorization')).to.equal('Bearer pk_guild');
  });

  it('answers 502 saying so when the remote answers something that is not JSON', async () => {
    remoteAnswers(() => HttpResponse.html('<h1>Sign in to the Wi-Fi</h1>'));
    const answer = await strategy.handle(userInfo());
    expect(answer.status).to.equal(502);
    const body = await answer.json();
    expect(body.is_valid).to.equal(false);
    expect(body.message).to.contain('not JSON').and.to.contain('text/html');
  });

  it('answers 502 naming the field when the remote answers in the wrong shape', async () => {
    remoteAnswers(() => HttpResponse.json({ ...goodUserInfo, current_xp: 'five' }));
    const answer = await strategy.handle(userInfo());
    expect(answer.status).to.equal(502);
    expect((await answer.json()).message)
      .to.contain('wrong shape')
      .and.to.contain('current_xp');
  });

  it('answers 502 for a 4xx that is not the API’s failure shape', async () => {
    remoteAnswers(() => HttpResponse.json({ error: 'nope' }, { status: 404 }));
    const answer = await strategy.handle(userInfo());
    expect(answer.status).to.equal(502);
    expect((await answer.json()).message).to.contain('is_valid');
  });

  it('does not keep a bad answer for offline use', async () => {
    remoteAnswers(() => HttpResponse.json({ ...goodUserInfo, tasks_logged: null }));
    await strategy.handle(userInfo());
    handlers = [];
    const answer = await strategy.handle(userInfo());
    expect(answer.status).to.equal(503);
  });

  it('gives up on a remote that does not answer within the timeout and serves the kept answer', async () => {
    remoteAnswers(() => HttpResponse.json(goodUserInfo));
    await strategy.handle(userInfo());
    remoteAnswers(async () => {
      await delay('infinite');
      return HttpResponse.json(goodUserInfo);
    });
    const answer = await strategy.handle(userInfo());
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('X-Questboard-Source')).to.equal('cache');
  });

  it('says how the remote failed when nothing is kept', async () => {
    remoteAnswers(async () => {
      await delay('infinite');
      return HttpResponse.json(goodUserInfo);
    });
    const answer = await strategy.handle(userInfo());
    expect(answer.status).to.equal(503);
    expect((await answer.json()).message).to.contain('no answer within 100 ms');
  });

  it('keeps a write the remote fails with 5xx queued under the key of its first attempt, while reads still reach the remote', async () => {
    const endorsements: Request[] = [];
    let endorseStatus = 500;
    handlers = [
      http.post(`${REMOTE}/v1/endorse_account`, ({ request }) => {
        endorsements.push(request);
        return HttpResponse.json(
          endorseStatus === 200 ? { is_valid: true, message: null } : { is_valid: false, message: 'boom' },
          { status: endorseStatus },
        );
      }),
      http.get(`${REMOTE}/v1/get_userinfo`, () => HttpResponse.json(goodUserInfo)),
    ];
    const write = await strategy.handle(endorsement());
    expect(write.status).to.equal(202);

    const read = await strategy.handle(userInfo());
    expect(read.status).to.equal(200);
    expect(read.headers.get('X-Questboard-Source')).to.equal(null);

    let stopped: unknown = null;
    await strategy.replayOutbox().catch((error: unknown) => (stopped = error));
    expect(String(stopped)).to.contain('answered 500');

    endorseStatus = 200;
    await strategy.replayOutbox();
    await strategy.replayOutbox();
    expect(endorsements).to.have.length(4);
    const keys = endorsements.map((request) => request.headers.get('Idempotency-Key'));
    expect(new Set(keys).size, 'the first attempt and every replay share one key').to.equal(1);
    expect(keys[0]).to.be.a('string');
  });

  it('replays a write with the Idempotency-Key its caller gave', async () => {
    const write = await strategy.handle(endorsement({ 'Idempotency-Key': 'caller-key-1' }));
    expect(write.status).to.equal(202);
    let replayed: Request | undefined;
    handlers = [
      http.post(`${REMOTE}/v1/endorse_account`, ({ request }) => {
        replayed = request;
        return HttpResponse.json({ is_valid: true, message: null });
      }),
    ];
    await strategy.replayOutbox();
    expect(replayed!.headers.get('Idempotency-Key')).to.equal('caller-key-1');
  });

  it('refuses an http: remote other than this machine, saying https: is needed', async () => {
    for (const remote of [
      'http://api.example.com',
      'http://127.0.0.1.example.com',
      'http://localhost.example.com',
      'http://[::2]',
    ]) {
      let refused: unknown = null;
      await strategy.configure({ remote }).catch((error: unknown) => (refused = error));
      expect(refused, remote).to.be.instanceOf(TypeError);
      expect(String(refused)).to.contain('https:');
    }
    expect((await strategy.settings()).remote).to.equal(REMOTE);
  });

  it('takes an http: remote on this machine: localhost, 127.0.0.0/8 and [::1]', async () => {
    const kept = async (remote: string) => (await strategy.configure({ remote })).remote;
    expect(await kept('http://localhost:8787/')).to.equal('http://localhost:8787');
    expect(await kept('http://127.1.2.3:8787')).to.equal('http://127.1.2.3:8787');
    expect(await kept('http://[::1]:8787')).to.equal('http://[::1]:8787');
  });

  it('rejects a remote setting that is not an http(s) URL', async () => {
    let refused: unknown = null;
    await strategy.configure({ remote: 'ftp://remote.questboard.test' }).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(TypeError);
    expect((await strategy.settings()).remote).to.equal(REMOTE);
  });
});
