// A signed POST to a site's endpoint (a webhook delivery, a callback check), connected to the
// address checked for it (public-address.ts) and to no other: the connection's own lookup
// answers with that address, so the name is not resolved again between the check and the
// connection. TLS still verifies the certificate for the URL's host name.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkedAddress, type AddressRules } from './public-address.js';
import { signedHeaders } from './webhook-signature.js';

/** How long a site has to answer: a delivery or a check not answered in time failed. */
export const OUTBOUND_TIMEOUT_MS = 10_000;
/** Bytes of an answer read; a site's answer to a webhook is not read at all past it. */
const ANSWER_LIMIT = 64 * 1024;

export interface SignedPost {
  url: string;
  /** The webhook-id, the same for every attempt of one delivery. */
  id: string;
  body: string;
  /** The `whsec_` secrets it is signed with (each a signature of the header). */
  secrets: string[];
}

export interface Answer {
  status: number;
  /** The answer's first ANSWER_LIMIT bytes, as text. */
  text: string;
}

/**
 * Sends the POST and resolves with the site's answer, or rejects: AddressRefused when the URL
 * may not be sent to, an Error saying why when no answer came in time.
 */
export async function postSigned(post: SignedPost, rules: AddressRules, timeoutMs = OUTBOUND_TIMEOUT_MS): Promise<Answer> {
  const url = new URL(post.url);
  const { address, family } = await checkedAddress(url, rules);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Questboard-Webhooks',
    ...signedHeaders(post.secrets, post.id, timestamp, post.body),
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Answer>((resolve, reject) => {
    const request = send(
      url,
      { method: 'POST', headers, lookup: pinned, signal: AbortSignal.timeout(timeoutMs), agent: false },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < ANSWER_LIMIT) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).subarray(0, ANSWER_LIMIT).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', (error: Error) =>
      reject(error.name === 'AbortError' ? new Error(`no answer within ${timeoutMs / 1000} s`) : error),
    );
    request.end(post.body);
  });
}
