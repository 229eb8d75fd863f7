// Preloaded (node --import) into the servers the test runner's plugins start
// (scripts/wtr-remote-server.js, scripts/wtr-api-adapter.js), which they spawn
// with an IPC channel: when the test runner goes away, even killed outright,
// the channel closes and the server stops as on SIGTERM, so none is left behind.
if (process.channel) {
  // The channel alone must not keep the server running.
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
