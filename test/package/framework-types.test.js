// The frameworks' element types as the package ships them (npm test builds dist/ before these
// run): a React 19 + TypeScript app and a Vue single-file component that use every element
// type-check against `questboard/react` and `questboard/vue`, through the package's own
// "exports", and the mistakes they carry (marked as expected errors) are rejected.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { before, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** @param {string} path */
const fixture = (path) => `${root}test/frameworks/${path}`;
/** @type {import('custom-elements-manifest/schema').Package} */
const manifest = JSON.parse(readFileSync(`${root}dist/custom-elements.json`, 'utf8'));
/**
 * An element as the analyzer lists it: the schema's, with its tag and members, its fields marked
 * `readonly` where they are (the analyzer's addition to the schema).
 * @typedef {Omit<import('custom-elements-manifest/schema').CustomElement, 'members'> & { tagName: string,
 *   members: Array<(import('custom-elements-manifest/schema').ClassField & { readonly?: boolean }) |
 *   import('custom-elements-manifest/schema').ClassMethod> }} Element
 */
/** The declarations with a tag: the elements. */
const elements = manifest.modules.flatMap((module) =>
  /** @type {Element[]} */ (module.declarations ?? []).filter((declaration) => declaration.tagName),
);

before(() => {
  for (const file of ['dist/react.d.ts', 'dist/vue.d.ts'])
    assert.ok(existsSync(`${root}${file}`), `${file} is missing: run npm run build first`);
});

/**
 * @param {string} command
 * @param {string[]} args
 */
function check(command, args) {
  const { status, stdout, stderr } = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
  return { status, output: `${stdout}${stderr}`.trim() };
}

it('type-checks a React 19 app using every element with TypeScript 7', () => {
  const { status, output } = check(`${root}node_modules/.bin/tsc`, ['-p', fixture('react/tsconfig.json')]);
  assert.equal(output, '');
  assert.equal(status, 0);
});

it('type-checks a Vue single-file component using every element with vue-tsc', () => {
  const { status, output } = check(process.execPath, [fixture('vue-tsc.cjs'), '-p', fixture('vue/tsconfig.json')]);
  assert.equal(output, '');
  assert.equal(status, 0);
});

// An expected error the types did not raise fails the checks above: these keep the cases there.
it('keeps its deliberate mistakes: a wrong theme, a wrong attribute type, a wrong event', () => {
  const react = readFileSync(fixture('react/app.tsx'), 'utf8');
  const vue = readFileSync(fixture('vue/App.vue'), 'utf8');
  assert.equal(react.match(/\{\/\* @ts-expect-error: /g)?.length, 5);
  assert.equal(vue.match(/<!-- @vue-expect-error /g)?.length, 3);
  for (const text of [react, vue]) {
    assert.match(text, /theme="blue"/);
    assert.match(text, /limit="ten"/);
  }
});

it('uses every element in both, and types every property and event the manifest lists', () => {
  const react = readFileSync(`${root}dist/react.d.ts`, 'utf8');
  const vue = readFileSync(`${root}dist/vue.d.ts`, 'utf8');
  const app = readFileSync(fixture('react/app.tsx'), 'utf8');
  const component = readFileSync(fixture('vue/App.vue'), 'utf8');
  assert.equal(elements.length, 10);
  for (const element of elements) {
    const settable = element.members.filter(
      (member) => member.kind === 'field' && !member.privacy && !member.readonly && !member.static,
    );
    /** @param {string} types */
    const declaration = (types) => types.split('\n').find((line) => line.trimStart().startsWith(`'${element.tagName}':`)) ?? '';
    for (const [types, events] of /** @type {Array<[string, string[]]>} */ ([
      [react, element.events?.map((event) => `'on${event.name}'?: (event: ${event.type.text})`) ?? []],
      [vue, element.events?.map((event) => `'${event.name}': ${event.type.text}`) ?? []],
    ])) {
      const line = declaration(types);
      assert.ok(line, `${element.tagName} is not declared`);
      for (const field of settable) assert.match(line, new RegExp(`'${field.name}'`), `${element.tagName}.${field.name}`);
      for (const event of events) assert.ok(line.includes(event), `${element.tagName}: ${event}`);
    }
    assert.match(app, new RegExp(`<${element.tagName}[\\s>]`));
    assert.match(component, new RegExp(`<${element.tagName}[\\s>]`));
  }
});
