// A build step for the scripts a site loads as they are (scripts/build.js): the CSS in `css`
// templates (Lit's in src/components, src/ui/css.ts's in src/ui) loses its comments and
// indentation. Minifiers leave template text alone, and in the embed that text is about a
// twentieth of its gzip size. Only whitespace, comments and a block's last `;` change: a run of
// whitespace becomes one space (between selectors it is a combinator), and none is kept beside
// `{`, `}` or `;`, nor after `:` or `,` (never before a colon: `.a :hover` is not `.a:hover`).
// The markup in `html` templates loses its indentation too (minifyHtml).
/** A rolldown/Vite plugin, run after TypeScript is stripped. */
export function minifyCssTemplates() {
  return {
    name: 'questboard:minify-css-templates',
    enforce: 'post',
    /** @param {string} code @param {string} id */
    transform(code, id) {
      if (!/\/src\/.+\.ts$/.test(id) || !(code.includes('css`') || code.includes('html`'))) return null;
      const runs = [
        ...templateTexts(code, 'css').map((text) => ({ ...text, minify: minifyCss })),
        ...templateTexts(code, 'html').map((text) => ({ ...text, minify: minifyHtml })),
      ].sort((a, b) => a.start - b.start);
      let minified = '';
      let copied = 0;
      for (const { start, end, minify } of runs) {
        minified += code.slice(copied, start) + minify(code.slice(start, end));
        copied = end;
      }
      // No source map: these scripts ship without one.
      return { code: minified + code.slice(copied), map: null };
    },
  };
}

/** @param {string} css */
export function minifyCss(css) {
  // Quoted text (a `content` value, a font name) is kept as written.
  return css
    .split(/("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/)
    .map((/** @type {string} */ part, /** @type {number} */ index) =>
      index % 2 === 1
        ? part
        : part
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/\s+/g, ' ')
            .replace(/ ?([{};]) ?/g, '$1')
            .replace(/([:,]) /g, '$1')
            // The last declaration of a block needs no semicolon.
            .replace(/;}/g, '}')
            // calc()'s * and / need no spaces (its + and - do): taken only between a `)`, a number or
            // a % and a number or var(), so a selector's universal `*` (`.a * .b`) is never touched.
            .replace(/([)\d%]) ([*/]) (?=[(\d]|\.\d|var\()/g, '$1$2')
            // A number's leading zero: 0.8 is .8 (not after a digit, a letter or a dot: 10.5, h0.5).
            .replace(/(?<![\w.])0\.(\d)/g, '.$1'),
    )
    .join('');
}

/**
 * Lit's html`…` markup: a run of whitespace across lines (the source's indentation) becomes one
 * line break. HTML collapses such runs to one space wherever the elements render text (none sets
 * `white-space: pre`), so what a member sees is the same, and the text's own spaces are kept.
 */
/** @param {string} html */
export function minifyHtml(html) {
  return html.replace(/\s*\n\s*/g, '\n');
}

/**
 * The literal text runs of every `tag`…` template (not their ${…} expressions), as offsets in
 * `code`, those of templates nested in another's expressions too.
 */
/** @typedef {{ start: number, end: number }} TextRun */

/**
 * @param {string} code
 * @param {string} tag
 */
function templateTexts(code, tag) {
  /** @type {TextRun[]} */
  const texts = [];
  const opening = new RegExp(`(?<![\\w$.])${tag}\``, 'g');
  let match;
  while ((match = opening.exec(code)) !== null) scanTemplate(code, match.index + match[0].length, texts);
  return texts.filter(({ start, end }) => end > start);
}

/**
 * Reads a template literal from just after its opening backtick; pushes its text runs to
 * `texts` (when given) and returns the offset after its closing backtick.
 * @param {string} code
 * @param {number} from
 * @param {TextRun[] | null} texts
 * @returns {number}
 */
function scanTemplate(code, from, texts) {
  let start = from;
  for (let at = from; at < code.length; at++) {
    const char = code[at];
    if (char === '\\') at++;
    else if (char === '`') {
      texts?.push({ start, end: at });
      return at + 1;
    } else if (char === '$' && code[at + 1] === '{') {
      texts?.push({ start, end: at });
      at = scanExpression(code, at + 2) - 1;
      start = at + 1;
    }
  }
  throw new Error('minify-css-templates: a template literal never ends');
}

/**
 * Reads a ${…} expression from just after `${`; returns the offset after its closing brace.
 * @param {string} code
 * @param {number} from
 */
function scanExpression(code, from) {
  let depth = 0;
  for (let at = from; at < code.length; at++) {
    const char = code[at];
    if (char === '`') at = scanTemplate(code, at + 1, null) - 1;
    else if (char === "'" || char === '"') at = scanString(code, at);
    else if (char === '{') depth++;
    else if (char === '}') {
      if (depth === 0) return at + 1;
      depth--;
    }
  }
  throw new Error('minify-css-templates: a ${…} expression never ends');
}

/**
 * The offset of the quote that closes the string opened at `from`.
 * @param {string} code
 * @param {number} from
 */
function scanString(code, from) {
  for (let at = from + 1; at < code.length; at++) {
    if (code[at] === '\\') at++;
    else if (code[at] === code[from]) return at;
  }
  throw new Error('minify-css-templates: a string never ends');
}
