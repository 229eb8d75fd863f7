// The console's bundle (dist/console/, served at /console/): the community manager's app.
// Never loaded by the embed.
import { defineConsoleElement } from './section.js';
import { QbConsole } from './qb-console.js';

defineConsoleElement('qb-console', QbConsole);
