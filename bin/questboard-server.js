#!/usr/bin/env node
// `questboard-server` (package.json "bin"): the Questboard server, built into
// dist/node/server.js by `npm run build`. `questboard-server --help` lists its options.
let server;
try {
  server = await import('../dist/node/server.js');
} catch (error) {
  // A checkout that was never built: say so in one line, not with a stack.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/node/server.js')) throw error;
  process.stderr.write('questboard-server: dist/node/server.js is missing: run npm run build first.\n');
  process.exit(1);
}
await server.main(process.argv.slice(2));
