// Test pages only (host-*.html, theme-*.html): the same host content and widgets on every
// host page, so test/embed/host-pages.test.ts can compare computed styles between pages. The
// widgets sit in `.entry-content`, where a WordPress-style theme's rules reach them. The test
// adds the embed itself, once it has read the host page's own styles.
const CHALLENGE_ID = '0b6c1a52-7a0e-4d3c-9f3e-1c2d3e4f5a6b';
const POST_TASK_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const PROFILE_TASK_ID = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';

document.body.insertAdjacentHTML(
  'beforeend',
  `<main class="container">
    <article class="entry-content">
      <div id="host">
        <h1>The guild</h1>
        <p>Welcome to the guild. <em>Be kind.</em></p>
        <ul><li>Rules</li><li>Events</li></ul>
        <table>
          <caption>Meetups</caption>
          <thead><tr><th>When</th><th>Where</th></tr></thead>
          <tbody><tr><td>Monday</td><td>Online</td></tr><tr><td>Friday</td><td>Library</td></tr></tbody>
        </table>
      </div>
      <section id="widgets">
        <div id="board" data-questboard-leaderboard data-app-id="guild" data-limit="3"></div>
        <qb-leaderboard app-id="guild" limit="3" highlight="carol"></qb-leaderboard>
        <qb-user-card app-id="guild" account-name="alice"></qb-user-card>
        <qb-task-progress task-id="${POST_TASK_ID}" account-name="alice"></qb-task-progress>
        <qb-task-progress task-id="${PROFILE_TASK_ID}" account-name="alice"></qb-task-progress>
        <qb-challenge challenge-id="${CHALLENGE_ID}" account-name="alice"></qb-challenge>
        <qb-endorse-button app-id="guild" from="alice" to="bob" endorsement-id="helpful"></qb-endorse-button>
        <qb-connect-social app-id="guild" account-name="alice"></qb-connect-social>
      </section>
    </article>
  </main>`,
);
