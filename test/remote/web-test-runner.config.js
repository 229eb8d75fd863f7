// Runs the remote tests alone with the reference server, before the main
// config wires the plugin in: npx wtr --config test/remote/web-test-runner.config.js
import config from '../../web-test-runner.config.js';
import { remoteServerPlugin } from '../../scripts/wtr-remote-server.js';

const wired = config.plugins.some((plugin) => plugin.name === 'questboard-remote-server');

export default {
  ...config,
  files: process.env.TEST_FILES ?? 'test/remote/**/*.test.ts',
  plugins: wired ? config.plugins : [...config.plugins, remoteServerPlugin({ dataset: 'test/remote/remote-dataset.json' })],
};
