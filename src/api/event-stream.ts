// GET /v1/events: server-sent events that carry change notices to other browsers. The server
// writes them and the page reads them with these, so both keep to one format (HTML Living
// Standard, "Server-sent events").
import type { ChangeNotice } from './broadcast.js';

/**
 * The events a change stream carries, each with a ChangeNotice as its data, so a page treats
 * both alike: `change` after a committed write, `reset` when the changes a reconnecting client
 * missed can no longer be told (its notice names the whole app, so everything showing it loads again).
 */
export type ChangeEventType = 'change' | 'reset';

export const EVENT_STREAM_TYPE = 'text/event-stream';

/** One event with its id, which a client sends back as Last-Event-ID when it reconnects. */
export function formatChangeEvent(type: ChangeEventType, id: string, notice: ChangeNotice): string {
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(notice)}\n\n`;
}

/** The last event of a stream the server dropped: the client should reconnect with its Last-Event-ID. */
export const RECONNECT_EVENT = 'reconnect';

/** Why a stream was dropped, as the data of its last event (RECONNECT_EVENT). */
export interface ReconnectNotice {
  type: 'questboard:reconnect';
  reason: 'slow-reader';
  message: string;
}

/**
 * The last event of a stream whose reader fell too far behind. It carries no id, so the
 * client's Last-Event-ID stays that of the last change it read, from which the server replays.
 */
export function formatReconnectEvent(notice: ReconnectNotice): string {
  return `event: ${RECONNECT_EVENT}\ndata: ${JSON.stringify(notice)}\n\n`;
}

/** An id alone: no event, but where a client that reconnects resumes from. */
export function formatEventId(id: string): string {
  return `id: ${id}\n\n`;
}

/** A comment, which clients ignore: it keeps an idle connection from being cut. */
export function formatComment(text: string): string {
  return `: ${text}\n\n`;
}

export interface StreamEvent {
  type: string;
  data: string;
}

/**
 * Reads an event stream's text as it arrives: `push` takes the next piece of text and answers
 * the events it completed; a line cut between two pieces waits for the rest.
 */
export class EventStreamParser {
  /** The id of the last event dispatched (or of an id-only block), null before any. */
  lastEventId: string | null = null;
  private pending = '';
  private idField: string | null = null;
  private type = '';
  private data: string[] = [];

  push(text: string): StreamEvent[] {
    const events: StreamEvent[] = [];
    this.pending += text;
    // A line ends at CRLF, LF or CR; a CR last in the text may be the start of a CRLF.
    const lines = this.pending.split(/\r\n|\n|\r(?!$)/);
    this.pending = lines.pop()!;
    for (const line of lines) {
      if (line === '') {
        const event = this.dispatch();
        if (event) events.push(event);
      } else {
        this.field(line);
      }
    }
    return events;
  }

  private field(line: string): void {
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
    if (name === 'event') this.type = value;
    else if (name === 'data') this.data.push(value);
    else if (name === 'id' && !value.includes('\0')) this.idField = value;
  }

  private dispatch(): StreamEvent | null {
    if (this.idField !== null) this.lastEventId = this.idField;
    const event = this.data.length === 0 ? null : { type: this.type || 'message', data: this.data.join('\n') };
    this.type = '';
    this.data = [];
    return event;
  }
}
