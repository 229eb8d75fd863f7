#!/usr/bin/env node
// `questboard-token` (package.json "bin"): member token key pairs and tokens,
// built into dist/node/token.js by `npm run build`. `questboard-token --help` says how.
let cli;
try {
  cli = await import('../dist/node/token.js');
} catch (error) {
  // A checkout that was never built: say so in one line, not with a stack.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/node/token.js')) throw error;
  process.stderr.write('questboard-token: dist/node/token.js is missing: run npm run build first.\n');
  process.exit(1);
}
process.exitCode = await cli.main(process.argv.slice(2));
