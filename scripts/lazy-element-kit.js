// How an element loaded on demand is bundled (dist/elements/<tag>.js, src/components/shared/lazy-elements.ts):
// its imports of src/components/shared/kit.ts become reads of the kit the script-tag embed
// publishes (src/embed/lazy-element-files.ts), so the file carries no second Lit, client or
// catalog, which would not see the page's configure(), member or language. Anything else it
// imports must be its own folder's, the contract's (src/api) or the English words of the elements
// loaded on demand (src/i18n/catalogs/en.ts's onDemand, which the embed leaves out): a copy of stateful code such as
// the client's configuration would be a bug no test of the element alone could see, so the
// build refuses it and names the import.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const kitFile = resolve(root, 'src/components/shared/kit.ts');
const contract = resolve(root, 'src/api') + sep;
const englishWords = resolve(root, 'src/i18n/catalogs/en.ts');
const KIT_MODULE = '\0questboard-kit';

/** The names kit.ts exports, read from its `export { … } from` lines. */
function kitNames() {
  const source = readFileSync(kitFile, 'utf8');
  return [...source.matchAll(/^export\s*\{([^}]*)\}\s*from/gm)].flatMap((match) =>
    match[1]
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type ')),
  );
}

/** The kit module a lazy file gets instead of kit.ts: the embed's own, found by its version's symbol. */
function kitShim() {
  const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
  return `const kit = globalThis[Symbol.for(${JSON.stringify(`questboard.kit@${version}`)})];
if (!kit) throw new Error('Questboard ${version}: this element loads through the script-tag embed of the same version.');
export const { ${kitNames().join(', ')} } = kit;
`;
}

/**
 * What `specifier`, imported by `importer`, is for a lazy element whose entry is `entry`.
 * @param {string} specifier
 * @param {string | undefined} importer
 * @param {string} entry
 * @returns {'own' | 'kit'}
 */
function classify(specifier, importer, entry) {
  // The entry itself, and the helpers the compiler adds (decorators).
  if (!importer || specifier.startsWith('\0') || specifier.startsWith('@oxc-project/runtime/')) return 'own';
  const target = specifier.startsWith('.') ? resolve(dirname(importer), specifier).replace(/\.js$/, '.ts') : specifier;
  if (target === kitFile) return 'kit';
  if (target.startsWith(dirname(resolve(root, entry)) + sep) || target.startsWith(contract) || target === englishWords)
    return 'own';
  throw new Error(
    `${relative(root, importer)} imports ${specifier}: an element loaded on demand takes shared code from src/components/shared/kit.ts only`,
  );
}

/**
 * For Vite's (rolldown's) build of one lazy element.
 * @param {string} entry
 * @returns {import('vite').Plugin}
 */
export function lazyElementKit(entry) {
  return {
    name: 'questboard:lazy-element-kit',
    enforce: 'pre',
    resolveId(specifier, importer) {
      return classify(specifier, importer, entry) === 'kit' ? KIT_MODULE : null;
    },
    load(id) {
      return id === KIT_MODULE ? kitShim() : null;
    },
  };
}

/**
 * The same for esbuild (the demo's dev server).
 * @param {string} entry
 * @returns {import('esbuild').Plugin}
 */
export function lazyElementKitForEsbuild(entry) {
  return {
    name: 'questboard:lazy-element-kit',
    setup(build) {
      build.onResolve({ filter: /.*/ }, ({ path, importer }) =>
        classify(path, importer, entry) === 'kit' ? { path: KIT_MODULE, namespace: 'questboard-kit' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'questboard-kit' }, () => ({ contents: kitShim(), loader: 'js' }));
    },
  };
}
