// Runs the stages of a test run (scripts/test.js, scripts/test-browsers.js)
// one after the other, every one of them even when an earlier one failed, and
// ends with one closing line, "N passed, N failed", the sum over every stage;
// the exit code is 0 iff nothing failed (130 after Ctrl-C).
//
// Each stage runs in a process group of its own: Ctrl-C (SIGINT) or SIGTERM
// reaches it through this process, which forwards the signal to the group and
// kills what is still there a while later; whatever a stage leaves behind
// when it ends is stopped before the next one starts.
//
// A stage is { name, command, args, env?, needs?, skip?, count? }:
//   needs  names of stages it cannot run without (passed in this run), e.g. the build
//   skip   why it does not run (a missing browser or database): said loudly;
//          counted as a failure in CI, which never skips
//   count  a function of its exit code giving { passed, failed } from its test
//          runner's own summary; without one the stage counts as one check
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a stage's processes get to end after a signal before they are killed. */
const GRACE_MS = 10_000;

/**
 * Process groups of the stages running now (one at a time, but kept general).
 * @type {Set<number>}
 */
const groups = new Set();
/** @type {string | null} */
let interrupted = null;

/**
 * @param {number} pid
 * @param {NodeJS.Signals | 0} signal
 */
function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // no process of that group is left
  }
}

/**
 * The processes of group `pgid` still running, as "pid command" lines: zombies,
 * already ended but not yet reaped by whoever inherited them, are not counted.
 * Where there is no /proc, any process of the group, unnamed.
 * @param {number} pgid
 */
function liveMembers(pgid) {
  if (!existsSync('/proc/self/stat')) return signalGroup(pgid, 0) ? [`(group ${pgid})`] : [];
  const members = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // "pid (command) state ppid pgrp …": the command may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') {
        members.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()}`);
      }
    } catch {
      // it ended while being read
    }
  }
  return members;
}

/** @param {number} pid */
const groupAlive = (pid) => liveMembers(pid).length > 0;

/**
 * Stops every process of the group: `signal` first, SIGKILL after the grace period.
 * @param {number} pid
 * @param {NodeJS.Signals} [signal]
 */
async function stopGroup(pid, signal = 'SIGTERM') {
  if (!signalGroup(pid, signal)) return;
  for (let waited = 0; waited < GRACE_MS && groupAlive(pid); waited += 100) await sleep(100);
  signalGroup(pid, 'SIGKILL');
}

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => {
    if (interrupted) {
      // A second Ctrl-C: no more waiting.
      for (const pid of groups) signalGroup(pid, 'SIGKILL');
      process.exit(130);
    }
    interrupted = signal;
    console.error(`\n${signal}: stopping the running stage…`);
    for (const pid of groups) void stopGroup(pid, signal);
  });
}
// Last resort (an exception here): no stage outlives this process.
process.on('exit', () => {
  for (const pid of groups) signalGroup(pid, 'SIGKILL');
});

/**
 * Runs one stage's command in a group of its own; resolves to its exit code (signals as 128 + n).
 * @param {{ command: string, args: string[], env?: Record<string, string> }} stage
 */
async function runCommand({ command, args, env }) {
  const child = spawn(command, args, { stdio: 'inherit', detached: true, env: { ...process.env, ...env } });
  const spawned = once(child, 'spawn').then(
    () => true,
    (error) => console.error(`cannot run ${command}: ${error.message}`) ?? false,
  );
  const exited = once(child, 'exit');
  if (!(await spawned)) return 127;
  // Set once the process spawned.
  const pid = /** @type {number} */ (child.pid);
  groups.add(pid);
  const [code, signal] = await exited;
  // Whatever the stage left running (a server a test did not stop) goes with it.
  const left = liveMembers(pid);
  if (left.length > 0) {
    console.error(`\n${command} ${args.join(' ')} left processes running; stopping them:\n${left.join('\n')}`);
    await stopGroup(pid);
  }
  groups.delete(pid);
  return code ?? 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGINT' ? 2 : 15);
}

/** @param {number} ms */
const minutes = (ms) => {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/**
 * Runs the stages in order and prints each one's result and time, then the closing line;
 * exits the process with 0 iff no stage failed.
 * @param {Array<{ name: string, command: string, args: string[], env?: Record<string, string>,
 *   needs?: string[], skip?: string, count?: (code: number) => { passed: number, failed: number } }>} stages
 */
export async function runStages(stages) {
  /** @type {Map<string, { ok: boolean, passed: number, failed: number, note: string, ms: number }>} */
  const results = new Map();
  const started = Date.now();
  const present = new Set(stages.map((stage) => stage.name));
  for (const stage of stages) {
    const begin = Date.now();
    // A stage left out of this run (QB_STAGES) is taken as done: its output is already there.
    const missing = (stage.needs ?? []).filter((name) => present.has(name) && results.get(name)?.ok !== true);
    /** @type {{ ok: boolean, passed: number, failed: number, note: string }} */
    let result;
    if (interrupted) {
      result = { ok: false, passed: 0, failed: 1, note: `not run (${interrupted})` };
    } else if (missing.length > 0) {
      result = { ok: false, passed: 0, failed: 1, note: `not run: needs ${missing.join(', ')}, which did not pass` };
    } else if (stage.skip && process.env.CI) {
      result = { ok: false, passed: 0, failed: 1, note: `not run, and CI never skips: ${stage.skip}` };
    } else if (stage.skip) {
      console.warn(`\n${'!'.repeat(78)}\n! SKIPPED ${stage.name}: ${stage.skip}\n${'!'.repeat(78)}`);
      result = { ok: true, passed: 0, failed: 0, note: `SKIPPED: ${stage.skip}` };
    } else {
      console.log(`\n── ${stage.name} ──\n`);
      const code = await runCommand(stage);
      const counted = stage.count?.(code) ?? { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
      // A runner that exits non-zero with no failing test failed outside its tests (a load error, a crash).
      if (code !== 0 && counted.failed === 0) counted.failed = 1;
      result = { ok: code === 0 && counted.failed === 0, ...counted, note: code === 0 ? '' : `exit ${code}` };
    }
    results.set(stage.name, { ...result, ms: Date.now() - begin });
  }

  let passed = 0;
  let failed = 0;
  console.log('\n── summary ──\n');
  const width = Math.max(...stages.map((stage) => stage.name.length));
  for (const [name, result] of results) {
    passed += result.passed;
    failed += result.failed;
    const counts = `${result.passed} passed, ${result.failed} failed`;
    console.log(`${name.padEnd(width)}  ${minutes(result.ms).padStart(5)}  ${counts.padEnd(24)} ${result.note}`.trimEnd());
  }
  console.log(`${'total'.padEnd(width)}  ${minutes(Date.now() - started).padStart(5)}`);
  // An interrupted run never reads as a passing one.
  if (interrupted && failed === 0) failed = 1;
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(interrupted ? 130 : failed === 0 ? 0 : 1);
}
