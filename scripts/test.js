// `npm test` and `npm run test:quick`: every stage of the tests, one after the
// other, each run even when an earlier one failed, ending with one closing
// line "N passed, N failed" and an exit code that agrees (scripts/stage-runner.js).
//
// npm test (node scripts/test.js):
//   lint, typecheck, build, the browser tests (scripts/test-browsers.js: each
//   engine, then the API suite on each SQL store), the node tests.
//   The browser and node tests need the build (the embed and package tests
//   read dist/): when it fails they count as failed, not run.
// npm run test:quick (node scripts/test.js --quick):
//   lint, typecheck, then the rules and the handler (test/api's rules and
//   handler files) in Chromium on IndexedDB and on the server's PGlite store;
//   no build, no Firefox, no PostgreSQL, no node tests.
//
// QB_STAGES=lint,node (names as in the summary, a prefix is enough) runs some stages only;
// QB_NODE_TESTS='test/server/x.test.js …' narrows the node tests, and the
// variables of scripts/test-browsers.js (QB_ENGINES, QB_ADAPTERS, TEST_FILES) the browser tests.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserStages } from './test-browsers.js';
import { runStages } from './stage-runner.js';

const quick = process.argv.includes('--quick');
const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);

const NODE_TESTS = [
  'test/architecture/',
  'test/bench/',
  'test/demo/',
  'test/docs/',
  'test/server/',
  'test/package/',
  'test/scripts/',
  'test/handler/',
  'test/store/',
];
const QUICK_FILES = 'test/api/{rules,handler}.test.ts';

const summaryDir = mkdtempSync(join(tmpdir(), 'questboard-test-'));
process.on('exit', () => rmSync(summaryDir, { recursive: true, force: true }));

const npmRun = (script) => ({ name: script, command: 'npm', args: ['run', '--silent', script] });

function nodeTests(files) {
  const summary = join(summaryDir, 'node.json');
  return {
    name: 'node tests',
    command: process.execPath,
    args: [
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${fileURLToPath(new URL('node-summary-reporter.js', import.meta.url))}`,
      `--test-reporter-destination=${summary}`,
      ...files,
    ],
    needs: ['build'],
    count: () => {
      try {
        const { passed, failed } = JSON.parse(readFileSync(summary, 'utf8'));
        return { passed, failed };
      } catch {
        return { passed: 0, failed: 0 };
      }
    },
  };
}

const stages = quick
  ? [
      npmRun('lint'),
      npmRun('typecheck'),
      ...(await browserStages({
        summaryDir,
        engines: ['chromium'],
        adapters: ['pglite'],
        files: process.env.TEST_FILES ?? QUICK_FILES,
      })),
    ]
  : [
      npmRun('lint'),
      npmRun('typecheck'),
      npmRun('build'),
      ...(await browserStages({ summaryDir })).map((stage) => ({ ...stage, needs: ['build'] })),
      nodeTests(process.env.QB_NODE_TESTS?.split(/\s+/).filter(Boolean) ?? NODE_TESTS),
    ];

const chosen = process.env.QB_STAGES?.split(',').filter(Boolean);
await runStages(chosen ? stages.filter((stage) => chosen.some((name) => stage.name.startsWith(name))) : stages);
