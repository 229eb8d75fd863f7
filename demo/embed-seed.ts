// Demo plumbing for the embed page, kept apart from what a site pastes: if
// the visitor comes here before the main demo page, the guild does not exist
// in this browser yet. Create it, then reload once so the embed finds it.
import { connect } from './connection.js';
import { ensureSeeded } from './seed.js';

const { transport } = await connect();
if ((await ensureSeeded(transport)) === 'seeded') location.reload();
