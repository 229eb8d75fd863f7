// Every method and every request the HTTP parser refuses is answered by our
// host in the API's error shape, its code in X-Questboard-Error (docs/errors.md):
// never Node's empty answers, a 500 or a drop.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exchange, openConnection, startServer } from './reference-server.js';

/** @import { Answer, RunningServer } from './reference-server.js' */

const HEAD_END = 'Host: 127.0.0.1\r\nConnection: close\r\n\r\n';

/**
 * @param {Answer} answer
 * @param {number} status
 * @param {string} code
 */
function assertError(answer, status, code) {
  assert.equal(answer.status, status, answer.body);
  assert.equal(answer.headers['x-questboard-error'], code);
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
  const body = answer.json();
  assert.equal(body.is_valid, false);
  assert.equal(typeof body.message, 'string');
  assert.notEqual(body.message, '');
}

describe('the Node host answers every method and malformed request in JSON', () => {
  /** @type {RunningServer} */
  let server;
  before(async () => {
    server = await startServer(['--allow-bootstrap', '--data', 'test/remote/remote-dataset.json']);
  });
  after(() => server?.stop());

  it('answers a method an operation does not take with 405 and Allow', async () => {
    const answer = await exchange(server.port, `PUT /v1/health HTTP/1.1\r\n${HEAD_END}`);
    assertError(answer, 405, 'method-not-allowed');
    assert.equal(answer.headers.allow, 'GET');
  });

  for (const method of ['TRACE', 'TRACK']) {
    it(`answers ${method}, which no fetch Request can carry, with 501`, async () => {
      assertError(await exchange(server.port, `${method} /v1/health HTTP/1.1\r\n${HEAD_END}`), 501, 'method-not-implemented');
    });
  }

  for (const method of ['FOO', 'get', 'Post']) {
    it(`answers the method ${method}, unknown to HTTP, with 501`, async () => {
      assertError(await exchange(server.port, `${method} /v1/health HTTP/1.1\r\n${HEAD_END}`), 501, 'method-not-implemented');
    });
  }

  it('answers CONNECT with 501 instead of dropping the connection', async () => {
    assertError(
      await exchange(server.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
      501,
      'method-not-implemented',
    );
  });

  it('answers a URL past 16 KiB with 431', async () => {
    assertError(
      await exchange(server.port, `GET /v1/health?pad=${'a'.repeat(20_000)} HTTP/1.1\r\n${HEAD_END}`),
      431,
      'headers-too-large',
    );
  });

  it('answers headers past 16 KiB with 431', async () => {
    assertError(
      await exchange(server.port, `GET /v1/health HTTP/1.1\r\nX-Pad: ${'a'.repeat(20_000)}\r\n${HEAD_END}`),
      431,
      'headers-too-large',
    );
  });

  it('answers a request line without an HTTP version with 400', async () => {
    assertError(await exchange(server.port, 'GET /v1/health HTTP/x\r\n\r\n'), 400, 'malformed-http');
  });

  it('answers a header line without a colon with 400', async () => {
    assertError(await exchange(server.port, `GET /v1/health HTTP/1.1\r\nnot a header\r\n${HEAD_END}`), 400, 'malformed-http');
  });

  it('answers a malformed chunk of a body with 400', async () => {
    const head = 'POST /v1/connect_social HTTP/1.1\r\nContent-Type: application/json\r\nAuthorization: Bearer pk_guild\r\n';
    assertError(
      await exchange(server.port, `${head}Transfer-Encoding: chunked\r\n${HEAD_END}zz\r\n{}\r\n0\r\n\r\n`),
      400,
      'malformed-http',
    );
  });

  it('answers a malformed Content-Length with 400', async () => {
    assertError(
      await exchange(server.port, `POST /v1/connect_social HTTP/1.1\r\nContent-Length: abc\r\n${HEAD_END}`),
      400,
      'malformed-http',
    );
  });

  for (const target of ['//', 'http://user:secret@127.0.0.1/v1/health']) {
    it(`answers the request target ${target}, which no Request takes, with 400`, async () => {
      assertError(await exchange(server.port, `GET ${target} HTTP/1.1\r\n${HEAD_END}`), 400, 'malformed-request');
    });
  }

  it('answers an Expect it cannot meet with 417', async () => {
    assertError(
      await exchange(server.port, `GET /v1/health HTTP/1.1\r\nExpect: teapot\r\n${HEAD_END}`),
      417,
      'expectation-failed',
    );
  });

  it('answers refused requests and keeps serving: the next connection gets its health', async () => {
    assertError(await exchange(server.port, `TRACE /v1/health HTTP/1.1\r\n${HEAD_END}`), 501, 'method-not-implemented');
    assertError(
      await exchange(server.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
      501,
      'method-not-implemented',
    );
    assertError(
      await exchange(server.port, `GET /v1/health?pad=${'a'.repeat(20_000)} HTTP/1.1\r\n${HEAD_END}`),
      431,
      'headers-too-large',
    );
    const health = await exchange(server.port, `GET /v1/health HTTP/1.1\r\n${HEAD_END}`);
    assert.equal(health.status, 200);
  });

  it('keeps a connection to a method it refuses open for the next request', async () => {
    const connection = await openConnection(server.port);
    try {
      await connection.write('TRACE /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      assertError(await connection.answer(), 501, 'method-not-implemented');
      await connection.write('GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      assert.equal((await connection.answer()).status, 200);
    } finally {
      connection.close();
    }
  });
});
