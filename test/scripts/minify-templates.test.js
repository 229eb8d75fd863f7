// scripts/minify-css-templates.js on Lit's templates: css loses its whitespace and comments, html
// its indentation, in nested templates too, and the ${…} expressions between them stay as written.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { minifyCssTemplates, minifyHtml } from '../../scripts/minify-css-templates.js';

/**
 * What the build makes of `code`, a source file under src/ (the plugin leaves other files alone).
 * @param {string} code
 */
function transform(code) {
  const result = minifyCssTemplates().transform(code, '/repo/src/components/x.ts');
  assert.ok(result, 'the plugin left a source file with templates alone');
  return result.code;
}

it('collapses the indentation of html markup to one line break, keeping the text’s own spaces', () => {
  assert.equal(
    minifyHtml('<p class="a">\n      <span>two  words</span>\n    </p>\n'),
    '<p class="a">\n<span>two  words</span>\n</p>\n',
  );
});

it('minifies html templates nested in expressions, and css beside them, leaving the expressions alone', () => {
  const source = [
    'const styles = css`\n  .a {\n    color: red;\n  }\n`;',
    'const view = html`<ul>\n      ${items.map((item) => html`<li>\n          ${item.name + "  x"}\n        </li>`)}\n    </ul>`;',
  ].join('\n');
  assert.equal(
    transform(source),
    [
      'const styles = css` .a{color:red}`;',
      'const view = html`<ul>\n${items.map((item) => html`<li>\n${item.name + "  x"}\n</li>`)}\n</ul>`;',
    ].join('\n'),
  );
});
