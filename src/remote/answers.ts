import { jsonResponse } from '../handler/http.js';

/** A write kept in the outbox, to be sent when the remote answers again. */
export const queued = () => jsonResponse(202, { is_valid: true, message: null, queued: true });
