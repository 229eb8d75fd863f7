// Every Questboard element, defined once for the demo pages that use the ES modules, with the
// package entry's catalogs of every language.
import '../src/index.js';
