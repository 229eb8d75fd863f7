// Request bodies read the same way in every engine. Firefox's Request has no
// `body` stream; Chromium's has one. Both paths run in both engines here: a
// Request with its stream hidden is what Firefox hands the handler.
import { expect } from '@open-wc/testing';
import { readJsonBody } from '../../src/handler/http.js';

const LIMIT = 16 * 1024;

function post(
  body: string | Uint8Array<ArrayBuffer>,
  { hideStream, contentType = 'application/json' }: { hideStream: boolean; contentType?: string },
): Request {
  const request = new Request('https://q.test/v1/connect_social', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  // An own property shadows the prototype's getter, as if the engine had none.
  if (hideStream) Object.defineProperty(request, 'body', { value: undefined });
  return request;
}

async function refusal(request: Request, limit = LIMIT): Promise<{ status: number; message: string }> {
  try {
    await readJsonBody(request, limit);
  } catch (error) {
    const { status, message } = error as { status: number; message: string };
    return { status, message };
  }
  throw new Error('the body was accepted');
}

for (const hideStream of [false, true]) {
  describe(`reading a JSON body ${hideStream ? 'without a body stream (as Firefox)' : 'from its stream'}`, () => {
    it('reads the object the client sent', async () => {
      const body = { app_id: 'guild', account_name: 'élodie', twitter_name: 'x' };
      expect(await readJsonBody(post(JSON.stringify(body), { hideStream }), LIMIT)).to.deep.equal(body);
    });

    it('counts the bytes when no Content-Length is declared: 413 one byte past the limit, not at it', async () => {
      const exactly = `{"a":"${'x'.repeat(LIMIT - 8)}"}`;
      expect(new TextEncoder().encode(exactly).byteLength).to.equal(LIMIT);
      expect(post(exactly, { hideStream }).headers.get('content-length')).to.equal(null);
      expect(await readJsonBody(post(exactly, { hideStream }), LIMIT)).to.have.property('a');
      // Bytes, not characters: one more two-byte character crosses the limit.
      const over = `{"a":"${'x'.repeat(LIMIT - 9)}é"}`;
      expect(await refusal(post(over, { hideStream }))).to.deep.equal({
        status: 413,
        message: `The request body is larger than ${LIMIT} bytes.`,
      });
    });

    it('400 for an empty body, bad JSON and a non-object', async () => {
      expect(await refusal(post('', { hideStream }))).to.deep.equal({
        status: 400,
        message: 'The request body is empty: send a JSON object.',
      });
      expect((await refusal(post('{"a": ', { hideStream }))).status).to.equal(400);
      expect((await refusal(post('[1]', { hideStream }))).message).to.equal('The request body must be a JSON object.');
    });

    it('400 for bytes that are not UTF-8, which are never read as U+FFFD', async () => {
      const text = new TextEncoder().encode('{"a":"x?"}');
      for (const bad of [0x80, 0xc3, 0xff]) {
        text[7] = bad;
        expect(await refusal(post(text, { hideStream }))).to.deep.equal({
          status: 400,
          message: 'The request body is not valid UTF-8.',
        });
      }
    });

    it('415 for a charset other than UTF-8, declared however it is spelt', async () => {
      const body = '{"a":"x"}';
      for (const contentType of [
        'application/json; charset=utf-16',
        'application/json; Charset="latin1"',
        'application/json;charset=',
      ]) {
        expect(await refusal(post(body, { hideStream, contentType }))).to.deep.equal({
          status: 415,
          message: 'Unsupported content-type: send the body as application/json, in UTF-8.',
        });
      }
      for (const contentType of [
        'application/json; charset=UTF-8',
        'application/json;charset="utf8"',
        'application/json; x=1; charset=utf-8',
      ]) {
        expect(await readJsonBody(post(body, { hideStream, contentType }), LIMIT), contentType).to.deep.equal({ a: 'x' });
      }
    });
  });
}
