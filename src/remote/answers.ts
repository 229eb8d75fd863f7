import { ApiError } from '../api/errors.js';
import { errorResponse, jsonResponse } from '../server/http.js';

/** An answer the strategy gives by itself, in the API's error envelope. */
export const failure = (status: number, message: string) => errorResponse(new ApiError(status, message));

/** A write kept in the outbox, to be sent when the remote answers again. */
export const queued = () => jsonResponse(202, { is_valid: true, message: null, queued: true });
