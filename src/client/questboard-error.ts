/** A request the API answered with `is_valid: false`, or one that never got a valid answer (status 0). */
export class QuestboardError extends Error {
  override readonly name = 'QuestboardError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
