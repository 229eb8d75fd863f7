// What the Node host hands the handler as it came off the socket: a body's raw bytes (invalid
// UTF-8 is refused, a character split between two packets is read whole), its declared charset,
// and the key of its Authorization header, bounded as every store bounds keys.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importSource } from '../source-module.js';
import { openConnection, startServer } from './reference-server.js';

const DATASET = 'test/remote/remote-dataset.json';
const KEY = 'pk_guild';
const ADMIN = 'sk_remote_admin';

/**
 * An endorsement of bob whose id is `idBytes`, as the bytes of a JSON body.
 * @param {Buffer} idBytes
 */
const endorsement = (idBytes) =>
  Buffer.concat([
    Buffer.from('{"app_id":"guild","from_account":"carol","to_account":"bob","endorsement_id":"'),
    idBytes,
    Buffer.from('"}'),
  ]);

describe('request bodies and keys on the Node host', () => {
  /** @type {import('./reference-server.js').RunningServer} */
  let server;
  before(async () => {
    server = await startServer(['--allow-bootstrap', '--data', DATASET]);
  });
  after(() => server?.stop());

  /**
   * @param {string} method
   * @param {string} path
   * @param {{ key?: string, body?: BodyInit, type?: string }} [options]
   */
  const call = async (method, path, { key = KEY, body, type = 'application/json' } = {}) => {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': type },
      body,
    });
    return { status: response.status, body: await response.json() };
  };
  const endorsementIdsOfCarol = async () =>
    (await call('GET', '/v1/admin/export?app_id=guild', { key: ADMIN })).body.apps[0].endorsements
      .filter((/** @type {{ from_account: string }} */ endorsement) => endorsement.from_account === 'carol')
      .map((/** @type {{ endorsement_id: string }} */ endorsement) => endorsement.endorsement_id);

  it('refuses bytes that are not UTF-8 with a 400, and reads a character split between packets whole', async () => {
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80]]) {
      const answer = await call('POST', '/v1/endorse_account', { body: endorsement(Buffer.from(bad)) });
      assert.deepEqual(answer, { status: 400, body: { is_valid: false, message: 'The request body is not valid UTF-8.' } });
    }
    assert.deepEqual(await endorsementIdsOfCarol(), []);

    // `é` is two bytes: the first ends one write, the second starts the next.
    const body = endorsement(Buffer.from('café'));
    const split = body.indexOf(0xc3) + 1;
    const connection = await openConnection(server.port);
    try {
      await connection.write(
        'POST /v1/endorse_account HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          `Authorization: Bearer ${KEY}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      await connection.write(body.subarray(0, split));
      await connection.write(body.subarray(split));
      assert.equal((await connection.answer()).status, 200);
    } finally {
      connection.close();
    }
    assert.deepEqual(await endorsementIdsOfCarol(), ['café']);
  });

  it('refuses a body declared in another charset with a 415', async () => {
    const json = '{"app_id":"guild","from_account":"carol","to_account":"bob","endorsement_id":"utf16"}';
    const answer = await call('POST', '/v1/endorse_account', {
      body: Buffer.from(json, 'utf16le'),
      type: 'application/json; charset=utf-16le',
    });
    assert.deepEqual(answer, {
      status: 415,
      body: { is_valid: false, message: 'Unsupported content-type: send the body as application/json, in UTF-8.' },
    });
    const utf8 = await call('POST', '/v1/endorse_account', { body: json, type: 'application/json; charset="UTF-8"' });
    assert.equal(utf8.status, 200);
  });

  it('refuses a key in Authorization longer than any store keeps, before looking it up', async () => {
    const answer = await call('GET', '/v1/get_leaderboard?app_id=guild', { key: 'k'.repeat(3000) });
    assert.deepEqual(answer, {
      status: 400,
      body: { is_valid: false, message: 'Authorization: must be at most 256 characters.' },
    });
  });
});

describe("the operator's admin keys", () => {
  it('refuses one longer than a request could send, naming where it was given and not the key', async () => {
    const { readInstallationKeys, MAX_API_KEY_LENGTH } = await importSource('src/server/admin-keys.ts', 'src/api/schemas.ts');
    const long = 's'.repeat(MAX_API_KEY_LENGTH + 1);
    await assert.rejects(readInstallationKeys({ adminKeys: ['sk_long_enough_0123456789', long], adminKeysFile: null }), {
      name: 'StartupError',
      message: `QUESTBOARD_ADMIN_KEYS key 2: an admin key has at most ${MAX_API_KEY_LENGTH} characters, this one has ${MAX_API_KEY_LENGTH + 1}.`,
    });
    const longest = await readInstallationKeys({ adminKeys: ['s'.repeat(MAX_API_KEY_LENGTH)], adminKeysFile: null });
    assert.equal(longest.length, 1);
  });
});
