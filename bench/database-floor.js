// The database's own floor under the seeding: the rows the imports wrote for the apps' members
// (the members, their progress, their challenges and their logs) inserted again by PostgreSQL
// alone, from copies kept in the same database, in transactions of as many members as an
// import carried: no server, no rules, no parameters sent. What the seeding takes above it is
// the server's; below it no server goes, on this machine, with these tables and their indexes
// (the boards' reads need them). The board counts are left out: the floor is lower than the truth.
// It empties those tables, so it runs once the engine's server has stopped.
import postgres from 'postgres';
import { cpuSeconds, cpuShares } from './cpu.js';

/** The tables that take a row or more a member, in the order an import's flush sends them; logs in the order appended. */
const MEMBER_TABLES = ['users', 'progress', 'member_challenges', 'logs'];

/** @param {string} table */
const copyOf = (table) => `floor_copy_${table}`;

/**
 * Inserts each app's member rows again, app after app (as they were seeded), `chunk` members a
 * transaction. Returns, by app id, the seconds it took and the CPU seconds PostgreSQL's processes
 * took meanwhile (null where /proc is not there).
 * @param {{ databaseUrl: string, appIds: string[], chunk: number }} options
 * @returns {Promise<Map<string, { seconds: number, postgresCpuSeconds: number | null, members: number }>>}
 */
export async function databaseFloor({ databaseUrl, appIds, chunk }) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    const columns = await insertedColumns(sql);
    await keepCopies(sql);
    await sql.unsafe(`TRUNCATE ${MEMBER_TABLES.join(', ')}`);
    // Empty tables, maintained, and nothing of the copies left to write back: the floor starts as the seeding did.
    await sql.unsafe(`VACUUM (ANALYZE) ${MEMBER_TABLES.join(', ')}`);
    await sql.unsafe('CHECKPOINT');
    /** @type {Map<string, { seconds: number, postgresCpuSeconds: number | null, members: number }>} */
    const floors = new Map();
    for (const appId of appIds) floors.set(appId, await insertAgain(sql, appId, chunk, columns));
    return floors;
  } finally {
    await Promise.all(MEMBER_TABLES.map((table) => sql.unsafe(`DROP TABLE IF EXISTS ${copyOf(table)}`))).catch(() => undefined);
    await sql.end();
  }
}

/**
 * Each table's columns that an insert names: not the log's sequence, which the database numbers.
 * @param {import('postgres').Sql} sql
 */
async function insertedColumns(sql) {
  const rows = await sql`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ANY(${MEMBER_TABLES})
      AND is_generated = 'NEVER' AND coalesce(column_default, '') NOT LIKE 'nextval(%'
    ORDER BY table_name, ordinal_position`;
  /** @type {Map<string, string[]>} */
  const columns = new Map(MEMBER_TABLES.map((table) => [table, []]));
  for (const { table_name, column_name } of rows) /** @type {string[]} */ (columns.get(table_name)).push(column_name);
  return columns;
}

/**
 * A copy of each table, every row with its member's number in name order within the app
 * (`member_index`, from 1), the order an import's chunks take them in.
 * @param {import('postgres').Sql} sql
 */
async function keepCopies(sql) {
  // The logs keep their sequence, which orders them as they go back (insertAgain): the copy needs no order of its own.
  for (const table of MEMBER_TABLES) {
    await sql.unsafe(`
      CREATE TABLE ${copyOf(table)} AS
      SELECT t.*, m.member_index FROM ${table} t
      JOIN (SELECT app_id, account_name, row_number() OVER (PARTITION BY app_id ORDER BY account_name) AS member_index FROM users) m
        USING (app_id, account_name)`);
    await sql.unsafe(`CREATE INDEX ON ${copyOf(table)} (app_id, member_index)`);
  }
  await sql.unsafe(`ANALYZE ${MEMBER_TABLES.map(copyOf).join(', ')}`);
}

/**
 * @param {import('postgres').Sql} sql
 * @param {string} appId
 * @param {number} chunk
 * @param {Map<string, string[]>} columns
 */
async function insertAgain(sql, appId, chunk, columns) {
  const [{ members }] = await sql`SELECT count(*)::integer AS members FROM ${sql(copyOf('users'))} WHERE app_id = ${appId}`;
  const statements = MEMBER_TABLES.map((table) => {
    const names = /** @type {string[]} */ (columns.get(table)).join(', ');
    const order = table === 'logs' ? ' ORDER BY seq' : '';
    return `INSERT INTO ${table} (${names}) SELECT ${names} FROM ${copyOf(table)}
      WHERE app_id = $1 AND member_index > $2 AND member_index <= $3${order}`;
  });
  // Read beside this process's own CPU (cpu.js reads a server's too); only PostgreSQL's is kept.
  const cpuBefore = cpuSeconds(process.pid);
  const started = performance.now();
  for (let first = 0; first < members; first += chunk) {
    await sql.begin(async (tx) => {
      for (const statement of statements) await tx.unsafe(statement, [appId, first, first + chunk]);
    });
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuShares(cpuBefore, cpuSeconds(process.pid), 1);
  return { seconds, postgresCpuSeconds: cpu === null ? null : cpu.postgres, members };
}
