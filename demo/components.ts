// Every Questboard element, defined once for the demo pages that use the ES modules.
import '../src/components/index.js';
