// The account-name profile: which names the API accepts, and the one form it
// keeps them in. Modelled on RFC 8265's PRECIS username profile, but open to
// any visible Unicode (names are shown on boards, not typed at a login) and
// case-sensitive, as names have always been here.

/** Characters (code points) of a name, counted after normalisation. */
export const MAX_ACCOUNT_NAME_LENGTH = 64;

const UNPAIRED_SURROGATE = /\p{Cs}/u;
const CONTROL = /\p{Cc}/u;
/** Zero-width characters, the soft hyphen, bidi overrides and isolates: unseen, they let one name pass for another. */
const FORMAT = /\p{Cf}/u;
/**
 * The format characters an emoji is drawn with, so seen, not hidden: a zero-width joiner
 * between two pictographs (👩‍💻, 👩🏽‍💻) and the tags of a subdivision flag (🏴 + tags + cancel tag).
 * Members pick such names; they are allowed, and only there.
 */
const EMOJI_FORMAT =
  /(?<=\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?)\u200D(?=\p{Extended_Pictographic})|(?<=\u{1F3F4}[\u{E0020}-\u{E007E}]*)[\u{E0020}-\u{E007F}]/gu;
/** Unseen at either end: white space and ignorables, but not what an emoji ends with (a variation selector, flag tags). */
const EDGE_SPACE =
  /^(?![\p{Variation_Selector}\u{E0020}-\u{E007F}])[\p{White_Space}\p{Default_Ignorable_Code_Point}]|(?![\p{Variation_Selector}\u{E0020}-\u{E007F}])[\p{White_Space}\p{Default_Ignorable_Code_Point}]$/u;
/** White space, and characters nothing draws (a Hangul filler, a lone variation selector). */
const BLANK = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}]*$/u;

/** NFC: `e\u0301` and `é` are one member, whichever way a keyboard or a file spelt them. */
export function normalizeAccountName(name: string): string {
  // Left as it is for accountNameFault to refuse: Firefox's normalize() turns a lone surrogate into U+FFFD.
  return UNPAIRED_SURROGATE.test(name) ? name : name.normalize('NFC');
}

/** Why a normalised name is refused (the end of `account_name: …`), or null if it is accepted. */
export function accountNameFault(name: string): string | null {
  if (name === '') return 'must not be empty';
  const unseen = unseenCharacterFault(name);
  if (unseen !== null) return unseen;
  // `alice ` would pass for `alice` on a board.
  if (EDGE_SPACE.test(name)) return 'must not start or end with white space';
  if ([...name].length > MAX_ACCOUNT_NAME_LENGTH) return `must be at most ${MAX_ACCOUNT_NAME_LENGTH} characters`;
  return null;
}

/**
 * Why a text holds what nobody sees, or holds nothing seen at all; null if it does not. Names
 * and free identifiers (app ids, keys, endorsement ids: schemas.ts) refuse the same.
 */
export function unseenCharacterFault(text: string): string | null {
  if (UNPAIRED_SURROGATE.test(text)) return 'must not contain unpaired surrogates';
  if (CONTROL.test(text)) return 'must not contain control characters';
  if (FORMAT.test(text.replace(EMOJI_FORMAT, '')))
    return 'must not contain format characters (zero-width, soft hyphen, bidi controls)';
  if (BLANK.test(text)) return 'must not be only white space';
  return null;
}
