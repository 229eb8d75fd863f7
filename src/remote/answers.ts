/** Answers the strategy gives by itself, in the API's JSON envelope. */
export function jsonAnswer(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}

export const failure = (status: number, message: string) => jsonAnswer(status, { is_valid: false, message });

/** A write kept in the outbox, to be sent when the remote answers again. */
export const queued = () => jsonAnswer(202, { is_valid: true, message: null, queued: true });
