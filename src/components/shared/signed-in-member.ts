import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { onConfigure, signedInMember } from '../../client/config.js';

export type MemberState =
  /** Not yet known: the page's token function has not answered. */
  | { status: 'unknown' }
  | { status: 'signed-out' }
  /** `name` is what the token claims, for display only: the API takes the member from the token itself. */
  | { status: 'signed-in'; name: string };

/**
 * Who the page's member token names, for the elements that write as the signed-in member:
 * read when the element connects and again on every Questboard.configure() (a sign-in or out).
 */
export class SignedInMemberController implements ReactiveController {
  state: MemberState = { status: 'unknown' };
  private generation = 0;
  private stopListening = () => {};

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {
    this.stopListening = onConfigure(() => void this.read());
    void this.read();
  }

  hostDisconnected(): void {
    this.stopListening();
    this.generation++;
  }

  /** The API refused the token as missing or expired (after a new one was asked for): the member signs in again. */
  signedOut(): void {
    this.set({ status: 'signed-out' });
  }

  private async read(): Promise<void> {
    const generation = ++this.generation;
    let name: string | null;
    try {
      name = await signedInMember();
    } catch (error) {
      // The site's token function failed: no one can write as a member until it answers.
      console.warn(`[questboard] the memberToken function failed: ${error instanceof Error ? error.message : String(error)}`);
      name = null;
    }
    if (generation === this.generation) this.set(name === null ? { status: 'signed-out' } : { status: 'signed-in', name });
  }

  private set(state: MemberState): void {
    this.generation++;
    this.state = state;
    this.host.requestUpdate();
  }
}
