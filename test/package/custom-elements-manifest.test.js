// dist/custom-elements.json as the package ships it (npm test builds dist/ before these run),
// against the elements' sources: every CSS custom property an element reads (the global
// --qb-* ones and its own), every part it renders, its slots, events and attributes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { before, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MANIFEST = 'dist/custom-elements.json';
/** A custom element of the manifest: a declaration with its tag. */
/** @typedef {import('custom-elements-manifest/schema').CustomElement & { tagName: string }} CustomElement */

/** @param {string} path */
const source = (path) => readFileSync(`${root}${path}`, 'utf8');

before(() => {
  assert.ok(existsSync(`${root}${MANIFEST}`), `${MANIFEST} is missing: run npm run build first`);
});

/** @returns {import('custom-elements-manifest/schema').Package} */
const manifest = () => JSON.parse(source(MANIFEST));
/** The declarations with a tag: the elements. */
const elements = () =>
  manifest().modules.flatMap((module) =>
    /** @type {CustomElement[]} */ (module.declarations ?? []).filter((declaration) => declaration.tagName),
  );
/** @param {Array<{ name: string }> | undefined} entries */
const names = (entries) => new Set((entries ?? []).map((entry) => entry.name));
/** @param {Iterable<string>} values */
const sorted = (values) => [...values].sort((a, b) => a.localeCompare(b));

/**
 * Every `--qb-*` custom property (not the private `--_qb-*` ones) a file reads with var(), but
 * for names a template completes (`var(--qb-color-${name}`: the palette, counted on its own).
 */
const propertiesRead = (/** @type {string} */ text) =>
  new Set([...text.matchAll(/var\((--qb-[\w-]+)(.)/g)].filter((match) => match[2] !== '$').map((match) => match[1]));

/**
 * The files that make an element's look and markup: its folder's, and the shared ones it imports.
 * @param {string} tag
 */
function filesOf(tag) {
  const own = readdirSync(`${root}src/components/${tag}`).map((file) => `src/components/${tag}/${file}`);
  const text = own.map(source).join('\n');
  const shared = [...text.matchAll(/from '\.\.\/shared\/([\w-]+)\.js'/g)].map((match) => `src/components/shared/${match[1]}.ts`);
  // An element loaded on demand takes its shared code through the kit: the files the kit re-exports.
  if (shared.includes('src/components/shared/kit.ts')) {
    const kit = source('src/components/shared/kit.ts');
    shared.push(...[...kit.matchAll(/from '\.\/([\w-]+)\.js'/g)].map((match) => `src/components/shared/${match[1]}.ts`));
  }
  const ui = [...text.matchAll(/from '\.\.\/\.\.\/ui\/([\w-]+)\.js'/g)].map((match) => `src/ui/${match[1]}.ts`);
  // Every element's tokens (shared/base-styles.ts) are its root's stylesheet from src/ui/theme.ts.
  return [...own, ...shared, ...ui, 'src/ui/theme.ts'];
}

/** Set on the bar by the element itself (its fill fraction): not a property a page sets. */
const INTERNAL_PROPERTIES = new Set(['--qb-fill']);

/**
 * Part names in `part="a b"` attributes and in string literals of `part=${…}` expressions.
 * @param {string} text
 */
function partsRendered(text) {
  /** @type {Set<string>} */
  const parts = new Set();
  for (const [, value] of text.matchAll(/\bpart="([^"]+)"/g)) value.split(/\s+/).forEach((part) => parts.add(part));
  for (const [, expression] of text.matchAll(/\bpart=\$\{([^}]+)\}/g)) {
    for (const [, value] of expression.matchAll(/'([^']+)'/g)) value.split(/\s+/).forEach((part) => parts.add(part));
  }
  return parts;
}

it('lists the ten elements, those loaded on demand among them', () => {
  assert.deepEqual(
    elements()
      .map((element) => element.tagName)
      .sort(),
    [
      'qb-achievements',
      'qb-challenge',
      'qb-connect-social',
      'qb-endorse-button',
      'qb-leaderboard',
      'qb-quest-task',
      'qb-season-picker',
      'qb-task-progress',
      'qb-user-card',
      'qb-user-highlights',
    ],
  );
});

it('lists on every element each global --qb-* property, with a description', () => {
  // The root stylesheet every element and the fragment share, and the elements' shared rules.
  const global = new Set([
    ...propertiesRead(source('src/ui/theme.ts')),
    ...propertiesRead(source('src/components/shared/base-styles.ts')),
  ]);
  const palette = [...source('src/ui/theme.ts').matchAll(/^ {2}'?([\w-]+)'?: \{ light:/gm)].map(
    (match) => `--qb-color-${match[1]}`,
  );
  assert.equal(palette.length, 12);
  for (const name of palette) global.add(name);
  assert.ok(global.size >= 18, [...global].join(' '));
  for (const element of elements()) {
    const listed = new Map((element.cssProperties ?? []).map((property) => [property.name, property.description]));
    for (const name of global) {
      assert.ok(listed.has(name), `${element.tagName} lacks ${name}`);
      assert.ok(listed.get(name), `${element.tagName}: ${name} has no description`);
    }
  }
});

it('lists every --qb-* property an element reads, and none it does not', () => {
  for (const element of elements()) {
    const files = filesOf(element.tagName);
    const read = new Set(files.flatMap((file) => [...propertiesRead(source(file))]));
    const listed = names(element.cssProperties);
    // theme.ts builds the palette's names from PALETTE: var(--qb-color-${name}, …).
    const palette = [...listed].filter((name) => name.startsWith('--qb-color-'));
    assert.deepEqual(
      [...read].filter((name) => !listed.has(name) && !INTERNAL_PROPERTIES.has(name)),
      [],
      element.tagName,
    );
    assert.deepEqual(
      [...listed].filter((name) => !read.has(name) && !palette.includes(name)),
      [],
      `${element.tagName} lists properties it does not read`,
    );
  }
});

it('lists exactly the parts each element renders', () => {
  const sharedStates = partsRendered(source('src/components/shared/status.ts'));
  for (const element of elements()) {
    const text = readdirSync(`${root}src/components/${element.tagName}`)
      .filter((file) => !file.endsWith('.styles.ts'))
      .map((file) => source(`src/components/${element.tagName}/${file}`))
      .join('\n');
    const rendered = partsRendered(text);
    // The loading, kept-answer, empty and error states of every element that shows its QueryController's states.
    if (/\bthis\.\w+\.render\(t\b/.test(text)) for (const part of sharedStates) rendered.add(part);
    else if (text.includes('renderEmpty(')) rendered.add('empty');
    assert.deepEqual(sorted(names(element.cssParts)), sorted(rendered), element.tagName);
    // Listed: compared just above.
    for (const part of /** @type {import('custom-elements-manifest/schema').CssPart[]} */ (element.cssParts))
      assert.ok(part.description, `${element.tagName}::part(${part.name}) has no description`);
  }
});

it('lists the slots and events each element has, events with their type', () => {
  for (const element of elements()) {
    const text = source(`src/components/${element.tagName}/${element.tagName}.ts`);
    const emitted = new Set([...text.matchAll(/this\.emit\('([\w-]+)'/g)].map((match) => match[1]));
    assert.deepEqual(sorted(names(element.events)), sorted(emitted), element.tagName);
    for (const event of element.events ?? [])
      assert.match(event.type?.text ?? '', /^Qb\w+Event$/, `${element.tagName}: ${event.name}`);
    // The default slot is named '' in the manifest.
    const slots = new Set([...text.matchAll(/<slot(?:\s+name="([\w-]+)")?/g)].map((match) => match[1] ?? ''));
    assert.deepEqual(sorted(names(element.slots)), sorted(slots), `${element.tagName} slots`);
  }
});

it('lists every attribute, the shared theme, api-key and base-url among them', () => {
  for (const element of elements()) {
    const text = source(`src/components/${element.tagName}/${element.tagName}.ts`);
    const declared = [...text.matchAll(/@property\(\{[^}]*attribute: '([\w-]+)'/g)].map((match) => match[1]);
    const plain = [...text.matchAll(/@property\((?:\{ type: \w+ \})?\) (\w+)/g)].map((match) => match[1]);
    const attributes = names(element.attributes);
    for (const name of [...declared, ...plain, 'theme', 'api-key', 'base-url'])
      assert.ok(attributes.has(name), `${element.tagName} lacks ${name}`);
  }
});
