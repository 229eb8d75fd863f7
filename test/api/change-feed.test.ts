// The change feed behind GET /v1/events, and the event-stream format both ends share: what a
// reconnecting subscriber is replayed, when it is told to reset instead, and how text that
// arrives in arbitrary pieces is read back into events.
import { expect } from '@open-wc/testing';
import type { ChangeNotice } from '../../src/api/broadcast.js';
import { EventStreamParser, formatChangeEvent, formatComment, formatEventId } from '../../src/api/event-stream.js';
import { inProcessChangeFeed, type FeedEvent } from '../../src/handler/change-feed.js';

const changed = (app_id: string, account_name: string): ChangeNotice => ({
  type: 'questboard:change',
  app_id,
  scope: 'members',
  account_names: [account_name],
});

describe('in-process change feed', () => {
  it('hands each change to the subscribers of its app only, until they unsubscribe', async () => {
    const feed = inProcessChangeFeed();
    const heard: FeedEvent[] = [];
    const subscription = await feed.subscribe('guild', null, (event) => heard.push(event));
    feed.publish(changed('elsewhere', 'dan'));
    feed.publish(changed('guild', 'alice'));
    expect(heard).to.have.length(1);
    expect(heard[0]).to.include({ kind: 'change' });
    expect(heard[0]!.kind === 'change' && heard[0]!.change).to.deep.equal(changed('guild', 'alice'));

    expect(feed.subscriptionCount()).to.equal(1);
    subscription.unsubscribe();
    expect(feed.subscriptionCount()).to.equal(0);
    feed.publish(changed('guild', 'bob'));
    expect(heard).to.have.length(1);
  });

  it('replays what a subscriber missed after its last event id, while the buffer still holds it', async () => {
    const feed = inProcessChangeFeed({ capacity: 3 });
    const { position, unsubscribe } = await feed.subscribe('guild', null, () => {});
    unsubscribe();
    feed.publish(changed('guild', 'alice'));
    feed.publish(changed('elsewhere', 'dan'));
    feed.publish(changed('guild', 'bob'));

    const replayed: FeedEvent[] = [];
    await feed.subscribe('guild', position, (event) => replayed.push(event));
    expect(replayed.map((event) => event.kind === 'change' && event.change)).to.deep.equal([
      changed('guild', 'alice'),
      changed('guild', 'bob'),
    ]);
    // Ids increase with every write, of any app.
    const [first, second] = replayed.map((event) => Number(event.id.split('-').pop()));
    expect(second).to.be.above(first!);
  });

  it('says reset, at the latest id, for an id older than the buffer holds, ahead of the feed, or of another feed', async () => {
    const feed = inProcessChangeFeed({ capacity: 2 });
    const { position } = await feed.subscribe('guild', null, () => {});
    for (const name of ['alice', 'bob', 'carol']) feed.publish(changed('guild', name));
    const latest = (await feed.subscribe('guild', null, () => {})).position;

    const ahead = position.replace(/\d+$/, '99');
    for (const lastEventId of [position, 'another-run-2', 'not an id', ahead]) {
      const heard: FeedEvent[] = [];
      await feed.subscribe('guild', lastEventId, (event) => heard.push(event));
      expect(heard, lastEventId).to.deep.equal([{ kind: 'reset', id: latest }]);
    }
  });

  it('keeps publishing to the others when a subscriber throws', async () => {
    const feed = inProcessChangeFeed();
    const heard: FeedEvent[] = [];
    const consoleError = console.error;
    console.error = () => {};
    try {
      await feed.subscribe('guild', null, () => {
        throw new Error('a broken subscriber');
      });
      await feed.subscribe('guild', null, (event) => heard.push(event));
      expect(() => feed.publish(changed('guild', 'alice'))).not.to.throw();
    } finally {
      console.error = consoleError;
    }
    expect(heard).to.have.length(1);
  });
});

describe('event-stream format', () => {
  const stream =
    formatComment('keep-alive') +
    formatEventId('run-1') +
    formatChangeEvent('change', 'run-2', changed('guild', 'alice')) +
    formatChangeEvent('reset', 'run-3', { type: 'questboard:change', app_id: 'guild', scope: 'app' });

  it('reads back what the server writes, however the text is cut', () => {
    for (const size of [1, 2, 7, stream.length]) {
      const parser = new EventStreamParser();
      const events = [];
      const ids = new Set<string | null>();
      for (let at = 0; at < stream.length; at += size) {
        events.push(...parser.push(stream.slice(at, at + size)));
        ids.add(parser.lastEventId);
      }
      expect(
        events.map((event) => [event.type, JSON.parse(event.data)]),
        `pieces of ${size}`,
      ).to.deep.equal([
        ['change', changed('guild', 'alice')],
        ['reset', { type: 'questboard:change', app_id: 'guild', scope: 'app' }],
      ]);
      expect(parser.lastEventId).to.equal('run-3');
      if (size === 1) expect([...ids]).to.include('run-1');
    }
  });

  it('takes CR and CRLF line ends, a CRLF cut between pieces, and data over several lines', () => {
    const parser = new EventStreamParser();
    const events = [...parser.push('id: 7\r\nevent: change\rdata: a\r'), ...parser.push('\ndata: b\r\n\r\n')];
    expect(events).to.deep.equal([{ type: 'change', data: 'a\nb' }]);
    expect(parser.lastEventId).to.equal('7');
  });
});
