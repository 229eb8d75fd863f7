// Request bodies are parsed here rather than by JSON.parse, for three promises:
// - amounts are exact: a number at an amount's place (EXACT_NUMBER_PATHS) is
//   kept as its own digits (a JsonNumber), so `12345678901.2345678` coins or a
//   sixteenth decimal never pass through a double;
// - nesting is bounded (MAX_JSON_DEPTH) and the parser keeps its own stack, so
//   no body can overflow the engine's;
// - every key is an own data property, `__proto__` included, as JSON.parse makes it.

/** How deep a request body may nest: far past any real dataset (an import is 6 levels, metadata adds its own). */
export const MAX_JSON_DEPTH = 64;

/** A JSON number kept as the digits the client sent. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

export class JsonTextError extends Error {
  constructor(readonly reason: 'syntax' | 'depth') {
    super(reason === 'depth' ? `nests deeper than ${MAX_JSON_DEPTH} levels` : 'is not valid JSON');
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

interface Frame {
  container: Record<string, unknown> | unknown[];
  /** The key the next value of an object frame goes under. */
  key: string;
}

/**
 * Parses JSON text. A number whose path is in `exactPaths` becomes a JsonNumber,
 * every other a plain number. A path names keys from the top, `*` for any array
 * item: `apps.*.progress.*.quantity`.
 */
export function parseJsonText(text: string, exactPaths: ReadonlySet<string>): unknown {
  let at = 0;
  const stack: Frame[] = [];
  const syntax = () => new JsonTextError('syntax');
  const skipSpace = () => {
    while (at < text.length && (text[at] === ' ' || text[at] === '\n' || text[at] === '\r' || text[at] === '\t')) at++;
  };
  const expect = (char: string) => {
    skipSpace();
    if (text[at] !== char) throw syntax();
    at++;
    skipSpace();
  };
  const readString = (): string => {
    if (text[at] !== '"') throw syntax();
    let end = at + 1;
    let plain = true;
    for (; end < text.length; end++) {
      const code = text.charCodeAt(end);
      if (code === 0x22) break; // "
      if (code === 0x5c || code < 0x20) {
        plain = false;
        if (code === 0x5c) end++;
      }
    }
    if (end >= text.length) throw syntax();
    const slice = text.slice(at, end + 1);
    at = end + 1;
    // Most strings hold no escape: they are their own value.
    if (plain) return slice.slice(1, -1);
    try {
      // The engine's own reading of one string token: escapes and control characters exactly as JSON says.
      return JSON.parse(slice) as string;
    } catch {
      throw syntax();
    }
  };
  const readKey = (frame: Frame) => {
    frame.key = readString();
    expect(':');
  };
  const path = () => stack.map((frame) => (Array.isArray(frame.container) ? '*' : frame.key)).join('.');
  const readScalar = (): unknown => {
    const char = text[at];
    if (char === '"') return readString();
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number) {
      at += number[0].length;
      return exactPaths.has(path()) ? new JsonNumber(number[0]) : Number(number[0]);
    }
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return value;
      }
    }
    throw syntax();
  };

  skipSpace();
  for (;;) {
    // One value: a scalar, an empty container, or the opening of one (then its first key, and round again).
    let value: unknown;
    const char = text[at];
    if (char === '{' || char === '[') {
      if (stack.length >= MAX_JSON_DEPTH) throw new JsonTextError('depth');
      at++;
      skipSpace();
      const container: Frame['container'] = char === '{' ? {} : [];
      if (text[at] === (char === '{' ? '}' : ']')) {
        at++;
        value = container;
      } else {
        const frame: Frame = { container, key: '' };
        stack.push(frame);
        if (char === '{') readKey(frame);
        continue;
      }
    } else {
      value = readScalar();
    }

    // Hand the value to its container; close every container that ends here.
    for (;;) {
      const frame = stack.at(-1);
      if (!frame) {
        skipSpace();
        if (at !== text.length) throw syntax();
        return value;
      }
      if (Array.isArray(frame.container)) frame.container.push(value);
      // Assigning `__proto__` would set the prototype; it is defined as a key instead.
      else if (frame.key === '__proto__')
        Object.defineProperty(frame.container, frame.key, { value, writable: true, enumerable: true, configurable: true });
      else frame.container[frame.key] = value;
      skipSpace();
      const close = Array.isArray(frame.container) ? ']' : '}';
      if (text[at] === ',') {
        at++;
        skipSpace();
        if (!Array.isArray(frame.container)) readKey(frame);
        break;
      }
      if (text[at] !== close) throw syntax();
      at++;
      stack.pop();
      value = frame.container;
    }
  }
}
