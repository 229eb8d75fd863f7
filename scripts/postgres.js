// Finds the PostgreSQL server the tests and benchmarks use, and gives each run a
// database of its own. QB_DATABASE_URL names a server (any database on it, for
// the connection); otherwise the local one of a developer's or CI machine.
// .ci/run starts a throwaway cluster where none runs, and sets QB_DATABASE_URL.
import postgres from 'postgres';

export const SERVER_URL = process.env.QB_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether the server answers, within a few seconds. */
export async function postgresAnswers(url = SERVER_URL) {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => undefined });
  try {
    await sql`SELECT 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** Creates a fresh database on the server; returns its URL and a function that drops it. */
export async function createDatabase(prefix = 'questboard_test') {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const sql = postgres(SERVER_URL, { max: 1, onnotice: () => undefined });
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await sql.end();
    },
  };
}

/** The directory of the server's Unix socket, and its port (which names the socket file there). */
export async function socketOf(url = SERVER_URL) {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const [row] = await sql`SELECT current_setting('unix_socket_directories') AS directories, current_setting('port') AS port`;
    return { directory: row.directories.split(',')[0].trim(), port: row.port };
  } finally {
    await sql.end();
  }
}
