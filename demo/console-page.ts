// The console in the demo: the same element the server serves at /console/, talking to this
// browser's service worker (or the in-page handler) instead of a server. The guild is created
// first if the dashboard has not been opened yet.
import '../src/console/index.js';
import type { QbConsole } from '../src/console/qb-console.js';
import { connect } from './connection.js';
import { DEMO_ADMIN_KEY } from './dataset.js';
import { ensureSeeded } from './seed.js';

document.querySelector('#demo-admin-key')!.textContent = DEMO_ADMIN_KEY;
const { transport } = await connect();
await ensureSeeded(transport);
const element = document.createElement('qb-console') as QbConsole;
element.transport = transport;
document.querySelector('#console-home')!.append(element);
