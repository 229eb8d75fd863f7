// vue-tsc on TypeScript 5 (the typescript5 alias): it needs TypeScript's JavaScript API,
// which TypeScript 7 no longer ships. Arguments as tsc's: node vue-tsc.cjs -p tsconfig.json
require('vue-tsc').run(require.resolve('typescript5/lib/tsc'));
