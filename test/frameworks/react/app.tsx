// A React 19 + TypeScript app using every Questboard element, type-checked (never run) by
// test/package/framework-types.test.js against the built `questboard/react` types. Below, each
// expected error is a mistake the types must reject: were it accepted, the check would fail.
import { useRef } from 'react';
import { configure, type QbEndorseEvent, type QbLeaderboard } from 'questboard/react';

configure({ apiKey: 'pk_guild', theme: 'auto' });

export function App() {
  const board = useRef<QbLeaderboard>(null);
  const endorsed = (event: QbEndorseEvent) => console.log(`${event.detail.from} endorsed ${event.detail.to}`);
  return (
    <main>
      <qb-leaderboard ref={board} app-id="guild" type="weekly" limit={5} highlight="alice" theme="dark" />
      <qb-leaderboard appId="guild" className="board" api-key="pk_other" base-url="https://api.example.org" />
      <qb-user-card app-id="guild" account-name="alice" theme="light" />
      <qb-task-progress task-id="1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d" accountName="alice" />
      <qb-challenge challenge-id="0b6c1a52-7a0e-4d3c-9f3e-1c2d3e4f5a6b" account-name="alice" />
      <qb-endorse-button app-id="guild" from="alice" to="bob" endorsement-id="helpful" onqb-endorse={endorsed}>
        Thank bob
      </qb-endorse-button>
      <qb-connect-social
        app-id="guild"
        account-name="alice"
        onqb-connect-social={(event) => console.log(event.detail.twitterName.toUpperCase())}
      />
      <qb-achievements app-id="guild" account-name="alice" />
      <qb-season-picker
        app-id="guild"
        for="board"
        onqb-season-change={(event) => console.log(event.detail.season_id?.toUpperCase())}
      />
      <qb-quest-task app-id="guild" task-id="22222222-2222-4222-8222-222222222222" kind="code" account-name="alice" />
      <qb-user-highlights app-id="guild" account-name="alice" />
      {/* @ts-expect-error: a theme is light, dark or auto */}
      <qb-user-card app-id="guild" account-name="alice" theme="blue" />
      {/* @ts-expect-error: limit is a number */}
      <qb-leaderboard app-id="guild" limit="ten" />
      {/* @ts-expect-error: app-id is a string */}
      <qb-user-card app-id={42} />
      {/* @ts-expect-error: a qb-endorse event's detail names no points */}
      <qb-endorse-button onqb-endorse={(event) => event.detail.points} />
      {/* @ts-expect-error: no such element */}
      <qb-leaderbord app-id="guild" />
    </main>
  );
}
