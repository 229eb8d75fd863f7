// Wire formats the spec fixes to the byte. Pure functions, shared by every layer.

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isGuid(value: string): boolean {
  return GUID.test(value);
}

/**
 * A random lowercase v4 GUID. crypto.randomUUID exists only in secure contexts: a site served
 * over plain http (not localhost) runs the in-page handler without it, so build one from
 * crypto.getRandomValues, which every context has.
 */
export function newGuid(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : guidFromRandomBytes();
}

export function guidFromRandomBytes(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `YYYY-MM-DDthh:mm:ss` in UTC: the spec's lowercase `t` and no zone. */
export function formatDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19).replace('T', 't');
}

/**
 * Quantities are kept as integers of 1/10,000 so that sums are exact
 * (0.7 + 0.1 must reach 0.8) and print with four fractional digits.
 */
export const QUANTITY_SCALE = 10_000;

/**
 * The scaled integer for a quantity the schemas admitted (at most four decimals, at most 1e9).
 * Exact: an integer divided by 10,000 is the very number JSON makes of its four-decimal text.
 */
export function toQuantityE4(value: number): number {
  const rounded = Math.round(value * QUANTITY_SCALE);
  if (!Number.isSafeInteger(rounded) || rounded / QUANTITY_SCALE !== value)
    throw new Error(`not a four-decimal quantity: ${value}`);
  return rounded;
}

/** The longest language tag taken: tags of real languages, with a region, script or extension, are far shorter. */
export const MAX_LANGUAGE_TAG_LENGTH = 64;

/** The canonical form of a BCP 47 language tag (de-at → de-AT), or null for anything that is not one. */
export function canonicalLanguageTag(text: string): string | null {
  if (text === '' || text.length > MAX_LANGUAGE_TAG_LENGTH) return null;
  try {
    return Intl.getCanonicalLocales(text)[0] ?? null;
  } catch {
    return null;
  }
}

/** An X (Twitter) handle: 1–15 letters, digits or underscores, a leading @ allowed. */
export const X_HANDLE = /^@?[A-Za-z0-9_]{1,15}$/;

/**
 * Whether the text is a web origin exactly as a browser sends it in `Origin`: http or https,
 * lowercase host, no default port, no path or trailing slash, no wildcard. Only that form is
 * taken, because origins are compared as text: `https://Forum.example:443/` would never match a
 * request, nor `https://*.example.org` (a URL takes `*.example` for a host's name).
 */
export function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text && !text.includes('*');
  } catch {
    return false;
  }
}

/** Marks a number that the serialiser writes with exactly four fractional digits. */
/** JSON.rawJSON (Chromium 114+, Firefox 135+, Safari 18.4+, Node 22+): JSON.stringify then writes our text as is. */
const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;

/**
 * Where JSON.rawJSON is missing (Node 20 runs the server), a Fixed4 is written by the native
 * writer as a string behind this mark, which toJsonText then unquotes: a recursive writer in
 * JavaScript took 6% of the server's time under load. The mark holds random digits drawn at
 * start, so no string of an input can forge it.
 */
const FIXED4_MARK = /* @__PURE__ */ (() => `qb${crypto.getRandomValues(new Uint32Array(4)).join('')}:`)();
const MARKED_FIXED4 = /* @__PURE__ */ new RegExp(`"${FIXED4_MARK}(-?\\d+\\.\\d{4})"`, 'g');

export class Fixed4 {
  constructor(readonly e4: number) {}
  toString(): string {
    return (this.e4 / QUANTITY_SCALE).toFixed(4);
  }
  toJSON(): unknown {
    return rawJSON ? rawJSON(this.toString()) : FIXED4_MARK + this.toString();
  }
}

/** A whole answer's JSON text kept as it was written: a stored earlier answer. */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * JSON text where every Fixed4 is written as a number with four decimals
 * (`10.0000`), which JSON.stringify cannot do.
 */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  const text = JSON.stringify(value) ?? 'null';
  return rawJSON ? text : text.replace(MARKED_FIXED4, '$1');
}

/** 1 coin = 100,000,000 tinybars; amounts never pass through floats. */
export const TINYBARS_PER_COIN = 100_000_000n;
const COIN_DECIMALS = 8;
/** More whole digits than any balance can hold; also keeps `1e999999999` from building a huge BigInt. */
const COIN_MAX_WHOLE_DIGITS = 20;
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

export type CoinParse =
  { ok: true; tinybars: bigint } | { ok: false; reason: 'not-a-number' | 'not-positive' | 'too-many-decimals' | 'too-large' };

/**
 * Parses a coin amount from its decimal text (a JSON number's shortest form,
 * or a query-string value) into tinybars, exactly.
 */
export function parseCoins(text: string): CoinParse {
  const decimal = splitDecimal(text.trim());
  if (!decimal) return { ok: false, reason: 'not-a-number' };
  const { negative, digits, fractionLength } = decimal;
  if (/^0*$/.test(digits)) return { ok: false, reason: 'not-positive' };
  if (negative) return { ok: false, reason: 'not-positive' };
  if (significantDecimals(decimal) > COIN_DECIMALS) return { ok: false, reason: 'too-many-decimals' };
  if (digits.length - fractionLength > COIN_MAX_WHOLE_DIGITS) return { ok: false, reason: 'too-large' };
  const shift = COIN_DECIMALS - fractionLength;
  const tinybars = shift >= 0 ? BigInt(digits) * 10n ** BigInt(shift) : BigInt(digits) / 10n ** BigInt(-shift);
  return { ok: true, tinybars };
}

/** How many decimals a number's text really has (`1.50` has 1, `1e-5` has 5, `12e3` none), or null if it is no number. */
export function decimalPlaces(text: string): number | null {
  const decimal = splitDecimal(text);
  return decimal ? significantDecimals(decimal) : null;
}

interface DecimalText {
  negative: boolean;
  /** All digits, leading zeros dropped. */
  digits: string;
  /** Where the decimal point stands, counted from the right of `digits` (the exponent applied). */
  fractionLength: number;
}

function splitDecimal(text: string): DecimalText | null {
  const match = DECIMAL.exec(text);
  if (!match || (match[2] === '' && !match[3])) return null;
  const [, sign, whole = '', fraction = '', exponentText] = match;
  const digits = (whole + fraction).replace(/^0+(?=\d)/, '') || '0';
  return { negative: sign === '-', digits, fractionLength: fraction.length - Number(exponentText ?? 0) };
}

function significantDecimals({ digits, fractionLength }: DecimalText): number {
  return Math.max(0, fractionLength - (digits.length - digits.replace(/0+$/, '').length));
}

/** Tinybars as a plain decimal coin amount (`250.5`), the import/export form. */
export function formatCoins(tinybars: bigint): string {
  const whole = tinybars / TINYBARS_PER_COIN;
  const fraction = (tinybars % TINYBARS_PER_COIN).toString().padStart(COIN_DECIMALS, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

const ACCOUNT_ID = /^(\d+)\.(\d+)\.(\d+)(?:-([a-z]{5}))?$/;
/** Ledger id of the network whose addresses we accept checksums for (mainnet = 0x00). */
const LEDGER_ID = [0x00];

export interface AccountId {
  shard: number;
  realm: number;
  num: number;
  /** `shard.realm.num` without the checksum. */
  text: string;
}

/** `shard.realm.num`, optionally with a HIP-15 `-abcde` checksum that must match. */
export function parseAccountId(value: string): AccountId | null {
  const match = ACCOUNT_ID.exec(value);
  if (!match) return null;
  const [, shard, realm, num, checksum] = match;
  const text = `${BigInt(shard!)}.${BigInt(realm!)}.${BigInt(num!)}`;
  const parts = [shard, realm, num].map(Number);
  if (!parts.every(Number.isSafeInteger)) return null;
  if (checksum !== undefined && checksum !== accountChecksum(`${shard}.${realm}.${num}`)) return null;
  return { shard: parts[0]!, realm: parts[1]!, num: parts[2]!, text };
}

/** The HIP-15 checksum: five letters from the address digits and the ledger id. */
export function accountChecksum(address: string): string {
  const p3 = 26 ** 3;
  const p5 = 26 ** 5;
  const digits = [...address].map((char) => (char === '.' ? 10 : Number(char)));
  let weighted = 0;
  let evenSum = 0;
  let oddSum = 0;
  digits.forEach((digit, index) => {
    weighted = (31 * weighted + digit) % p3;
    if (index % 2 === 0) evenSum = (evenSum + digit) % 11;
    else oddSum = (oddSum + digit) % 11;
  });
  let ledgerHash = 0;
  for (const byte of [...LEDGER_ID, 0, 0, 0, 0, 0, 0]) ledgerHash = (31 * ledgerHash + byte) % p5;
  let code = ((((digits.length % 5) * 11 + evenSum) * 11 + oddSum) * p3 + weighted + ledgerHash) % p5;
  code = (code * 1_000_003) % p5;
  let letters = '';
  for (let i = 0; i < 5; i++) {
    letters = String.fromCharCode(97 + (code % 26)) + letters;
    code = Math.floor(code / 26);
  }
  return letters;
}
