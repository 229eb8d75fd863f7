// Messages and how they are filled in. A small typed catalog rather than @lit/localize: its
// runtime mode needs a build step that extracts every msg() call into XLIFF and generates a
// module per language, and the fragment is rendered outside Lit (in the worker and the Node
// server), where a catalog of plain objects serves as well. Ids are a union type, so a typo or
// a missing placeholder is a compile error, and tests check every catalog against English.
import type { ErrorCode } from '../api/errors.js';
import type { elements, onDemand, table } from './catalogs/en.js';
import { numberFormat } from './number-format.js';

export type PluralCategory = Intl.LDMLPluralRule;

/** Words that follow a number: one form per plural category of the language (Intl.PluralRules), chosen by {count}. */
export type PluralMessage = { readonly [Category in PluralCategory]?: string } & { readonly other: string };
export type Message = string | PluralMessage;

type English = typeof table & typeof elements & typeof onDemand;
export type MessageId = keyof English;
/** The fragment's messages, which every handler carries for every language. */
export type TableMessageId = keyof typeof table;
/** The elements' messages, loaded with the page's language. */
export type ElementMessageId = keyof typeof elements;
/** The words of the elements loaded on demand: their English comes with them, the rest with the page's language. */
export type OnDemandMessageId = keyof typeof onDemand;

/** A catalog holds every message of its part; a site's messages may hold any of them. */
export type Catalog<Id extends MessageId = MessageId> = { readonly [K in Id]: Message };
export type SiteMessages = Readonly<Record<string, Partial<Catalog>>>;
/**
 * Why the API refused, by its code, in a language but English: English pages show the API's own
 * message, which is English (and the embed, which carries English, has no room for another copy).
 */
export type Refusals = { readonly [Code in ErrorCode]: string };

type Forms<M> = M extends string ? M : M[keyof M];
/** `{name}`s of a text; braces around anything but a word (code, as `{ apiKey }`) are text. */
type PlaceholdersIn<Text> = Text extends `${string}{${infer Name}}${infer Rest}`
  ? (Name extends '' | `${string} ${string}` ? never : Name) | PlaceholdersIn<Rest>
  : never;
/** The placeholders of a message, read from its English text. */
export type Placeholder<Id extends MessageId> = PlaceholdersIn<Forms<English[Id]>>;
/** The ids, among `Id`, of messages without placeholders. */
export type PlainMessageId<Id extends MessageId = MessageId> = {
  [K in Id]: [Placeholder<K>] extends [never] ? K : never;
}[Id];

/** What fills a message's placeholders: numbers are formatted in the locale; {count} must be one. */
export type Values<Id extends MessageId, Value = string | number> = {
  readonly [Name in Placeholder<Id>]: Name extends 'count' ? number : Value;
};
type ValuesArgument<Id extends MessageId, Value> = [Placeholder<Id>] extends [never] ? [] : [values: Values<Id, Value>];

export interface Translator<Id extends MessageId = MessageId> {
  /** The BCP 47 tag numbers and dates follow (the page's own, say de-AT). */
  readonly locale: string;
  /** The catalog's language the words come from (de for de-AT; en where no catalog matches). */
  readonly language: string;
  /** The message as text. */
  text<K extends Id>(id: K, ...values: ValuesArgument<K, string | number>): string;
  /**
   * The message as a list of text and the values themselves (a template, say, that wraps a
   * name in <bdi>), for Lit to render; numbers are formatted.
   */
  parts<K extends Id>(id: K, ...values: ValuesArgument<K, unknown>): unknown[];
  /** A number as this locale writes it (up to 4 decimals: task quantities have no more). */
  number(value: number): string;
}

/** Messages in one language: a site's own for a tag, or a catalog. */
export interface MessageSource<Id extends MessageId> {
  /** Its plural rules are the ones its messages are written for. */
  readonly language: string;
  readonly messages: Partial<Catalog<Id>>;
}

/**
 * A translator reading each message from the first of `sources` that has it (a site's own
 * messages first, the catalog last, which must hold every id the caller asks for).
 */
export function createTranslator<Id extends MessageId>(
  locale: string,
  sources: readonly [...MessageSource<Id>[], MessageSource<Id>],
): Translator<Id> {
  const format = numberFormat(locale, { maximumFractionDigits: 4 });
  const fill = (id: Id, values: Readonly<Record<string, unknown>> = {}): unknown[] => {
    const source = sources.find((candidate) => candidate.messages[id] !== undefined);
    if (!source) throw new Error(`No message ${id} for ${locale}.`);
    const message = source.messages[id]!;
    const text =
      typeof message === 'string'
        ? message
        : (message[pluralRules(source.language).select(Number(values.count))] ?? message.other);
    return text.split(/\{(\w+)\}/).map((piece, index) => {
      // Odd pieces are placeholder names.
      if (index % 2 === 0) return piece;
      const value = values[piece];
      return typeof value === 'number' ? format.format(value) : value;
    });
  };
  return {
    locale,
    language: sources[sources.length - 1]!.language,
    text: (id, ...[values]) => fill(id, values).join(''),
    parts: (id, ...[values]) => fill(id, values).filter((piece) => piece !== ''),
    number: (value) => format.format(value),
  };
}

const rules = new Map<string, Intl.PluralRules>();
function pluralRules(language: string): Intl.PluralRules {
  let found = rules.get(language);
  if (!found) {
    found = new Intl.PluralRules(language);
    rules.set(language, found);
  }
  return found;
}
