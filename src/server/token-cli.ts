// `questboard-token` (package.json "bin", run by bin/questboard-token.js from
// dist/node/token.js): a member token key pair for an app's settings, and
// member tokens for tests and scripts. A site's backend signs its own tokens
// (docs/member-tokens.md shows how, in a few lines); this is the same thing by hand.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { calculateJwkThumbprint } from 'jose/jwk/thumbprint';
import { exportJWK } from 'jose/key/export';
import { generateKeyPair } from 'jose/key/generate/keypair';
import { importJWK } from 'jose/key/import';
import { SignJWT } from 'jose/jwt/sign';
import type { JWK } from 'jose';
import { accountNameFault, normalizeAccountName } from '../api/account-names.js';
import {
  algorithmOfCurve,
  MAX_MEMBER_TOKEN_LIFETIME_S,
  MEMBER_TOKEN_ALGORITHMS,
  MEMBER_TOKEN_KEY_TYPES,
  type MemberTokenAlgorithm,
} from '../api/member-tokens.js';
import { UsageError } from './options.js';

const DEFAULT_TTL = '1h';

export const TOKEN_USAGE = `Usage: questboard-token keygen [--alg ${MEMBER_TOKEN_ALGORITHMS.join('|')}] [--kid ID]
       questboard-token sign --app ID --member NAME --key FILE [--ttl ${DEFAULT_TTL}]
keygen   prints a new key pair as JSON: "private_jwk" stays with the site's backend (it signs
         tokens); "public_jwk" goes into the app's settings.member_token_keys.
         --alg      ${MEMBER_TOKEN_ALGORITHMS.join(' or ')} (default ${MEMBER_TOKEN_ALGORITHMS[0]})
         --kid      the key's id in tokens (default: its RFC 7638 thumbprint)
sign     prints a member token for the header X-Questboard-Member.
         --app      the app's app_id
         --member   the member's account name (the token's sub)
         --key      a file with the private JWK (or keygen's whole output)
         --ttl      how long it lives: 90s, 30m, 1h … at most 24h (default ${DEFAULT_TTL})
--help   prints this`;

/** A key file that cannot be read or used: said in one line, exit code 1. */
class KeyFileError extends Error {
  override name = 'KeyFileError';
}

export interface KeyPair {
  private_jwk: JWK;
  public_jwk: JWK;
}

export async function generateMemberTokenKeys(alg: MemberTokenAlgorithm, kid?: string): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const public_jwk = await exportJWK(publicKey);
  const id = kid ?? (await calculateJwkThumbprint(public_jwk));
  return {
    private_jwk: { ...(await exportJWK(privateKey)), kid: id, alg },
    public_jwk: { ...public_jwk, kid: id, alg },
  };
}

export interface TokenRequest {
  app_id: string;
  member: string;
  /** A private JWK with its kid, as keygen prints it. */
  privateJwk: JWK;
  ttlSeconds: number;
  now?: Date;
}

export async function signMemberToken({
  app_id,
  member,
  privateJwk,
  ttlSeconds,
  now = new Date(),
}: TokenRequest): Promise<string> {
  const alg = algorithmOf(privateJwk);
  if (typeof privateJwk.kid !== 'string' || privateJwk.kid === '') {
    throw new KeyFileError('--key: the JWK has no kid; tokens name their key by it (keygen gives every key one).');
  }
  if (typeof privateJwk.d !== 'string') throw new KeyFileError('--key: this JWK is a public key; signing takes the private one.');
  let key;
  try {
    key = await importJWK(privateJwk, alg);
  } catch (error) {
    throw new KeyFileError(`--key: the JWK cannot be used: ${(error as Error).message}`);
  }
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ app_id })
    .setProtectedHeader({ alg, kid: privateJwk.kid, typ: 'JWT' })
    .setSubject(member)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(key);
}

function algorithmOf(jwk: JWK): MemberTokenAlgorithm {
  const alg = algorithmOfCurve(jwk.crv ?? '');
  if (alg === undefined || MEMBER_TOKEN_KEY_TYPES[alg].kty !== jwk.kty) {
    throw new KeyFileError('--key: not a P-256 (ES256) or Ed25519 (EdDSA) JWK.');
  }
  return alg;
}

const TTL_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** `90s`, `30m`, `1h` or plain seconds, from a second to MAX_MEMBER_TOKEN_LIFETIME_S. */
export function parseTtl(text: string): number {
  const match = /^(\d+)([smh]?)$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * TTL_UNITS[match[2] || 's']! : NaN;
  if (!(seconds >= 1 && seconds <= MAX_MEMBER_TOKEN_LIFETIME_S)) {
    throw new UsageError(`--ttl must be a duration such as 90s, 30m or 1h, at most 24h, got "${text}".`);
  }
  return seconds;
}

interface Output {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * Runs the command; returns its exit code: 0, 2 for a command line it cannot run (with the
 * usage), 1 for a key file it cannot read.
 */
export async function main(
  argv: string[],
  out: Output = { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) },
): Promise<number> {
  try {
    out.stdout(await run(argv));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      out.stderr(`questboard-token: ${error.message}\n${TOKEN_USAGE}\n`);
      return 2;
    }
    if (error instanceof KeyFileError) {
      out.stderr(`questboard-token: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

const OPTIONS = {
  alg: { type: 'string' },
  kid: { type: 'string' },
  app: { type: 'string' },
  member: { type: 'string' },
  key: { type: 'string' },
  ttl: { type: 'string' },
  help: { type: 'boolean' },
} as const;

async function run(argv: string[]): Promise<string> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help') return `${TOKEN_USAGE}\n`;
  let values;
  try {
    ({ values } = parseArgs({ args: rest, options: OPTIONS, strict: true }));
  } catch (error) {
    // parseArgs says well what is wrong with an unknown or incomplete option; only its class is not ours.
    throw new UsageError((error as Error).message);
  }
  if (values.help) return `${TOKEN_USAGE}\n`;
  if (command === 'keygen') {
    const alg = values.alg ?? MEMBER_TOKEN_ALGORITHMS[0];
    if (!(MEMBER_TOKEN_ALGORITHMS as readonly string[]).includes(alg)) {
      throw new UsageError(`--alg must be ${MEMBER_TOKEN_ALGORITHMS.join(' or ')}, got "${alg}".`);
    }
    const keys = await generateMemberTokenKeys(alg as MemberTokenAlgorithm, given('--kid', values.kid));
    return `${JSON.stringify(keys, null, 2)}\n`;
  }
  if (command === 'sign') {
    const app_id = required('--app', values.app);
    const member = normalizeAccountName(required('--member', values.member));
    const fault = accountNameFault(member);
    if (fault !== null) throw new UsageError(`--member ${fault}.`);
    const token = await signMemberToken({
      app_id,
      member,
      privateJwk: await readPrivateJwk(required('--key', values.key)),
      ttlSeconds: parseTtl(values.ttl ?? DEFAULT_TTL),
    });
    return `${token}\n`;
  }
  throw new UsageError(`unknown command "${command}": use keygen or sign.`);
}

function given(option: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') throw new UsageError(`${option} needs a value, got an empty one.`);
  return value;
}

function required(option: string, value: string | undefined): string {
  if (value === undefined) throw new UsageError(`${option} is required.`);
  return given(option, value)!;
}
/** A private JWK, or keygen's output holding one as `private_jwk`. */
async function readPrivateJwk(path: string): Promise<JWK> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new KeyFileError(`--key ${path}: ${(error as Error).message}`);
  }
  const jwk = (parsed as { private_jwk?: unknown } | null)?.private_jwk ?? parsed;
  if (jwk === null || typeof jwk !== 'object') throw new KeyFileError(`--key ${path}: not a JWK.`);
  return jwk as JWK;
}
