// Runs the remote tests alone with the reference server, before the main
// config wires the plugin in: npx wtr --config test/remote/web-test-runner.config.js
// Until src/worker/index.ts wires remoteFirst in, /questboard-sw.js is served
// from wired-worker.ts, the worker with the wiring proposed for it.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import config from '../../web-test-runner.config.js';
import { remoteServerPlugin } from '../../scripts/wtr-remote-server.js';

const workerWired = readFileSync('src/worker/index.ts', 'utf8').includes('remoteFirstInWorker');
const serverWired = config.plugins.some((plugin) => plugin.name === 'questboard-remote-server');

function proposedWorker() {
  return {
    name: 'questboard-proposed-worker',
    async serve(context) {
      if (context.path !== '/questboard-sw.js') return undefined;
      const result = await build({
        entryPoints: ['test/remote/wired-worker.ts'],
        bundle: true,
        format: 'iife',
        write: false,
        target: 'es2022',
        tsconfig: 'tsconfig.worker.json',
      });
      return { body: result.outputFiles[0].text, type: 'js' };
    },
  };
}

export default {
  ...config,
  files: process.env.TEST_FILES ?? 'test/remote/**/*.test.ts',
  plugins: [
    ...(workerWired ? [] : [proposedWorker()]),
    ...config.plugins,
    ...(serverWired ? [] : [remoteServerPlugin({ dataset: 'test/remote/remote-dataset.json' })]),
  ],
};
