import { setInPageServerLoader } from './config.js';
import { loadBundledServer } from './local-in-page-transport.js';
import { setChangeStreamReaderLoader } from './remote-changes.js';

export {
  QuestboardClient,
  type QuestboardClientOptions,
  type LeaderboardQuery,
  type EndorseInput,
  type ConnectSocialInput,
  type AirdropInput,
  type LogTaskInput,
  type ImportResult,
} from './client.js';
export { QuestboardError, type QuestboardErrorKind } from './questboard-error.js';
export { MemberTokens, type MemberTokenOption } from './member-token.js';
export type { Transport } from './transport.js';
export { fetchTransport } from './fetch-transport.js';
export {
  createInPageTransport,
  type InPageTransportOptions,
  type InPageTransport,
  type InPageServer,
  type InPageServerLoader,
} from './in-page-transport.js';
export { inPageTransport, loadBundledServer } from './local-in-page-transport.js';
export { subscribeToChanges, announceChange, changeAffects, type ChangeNotice, type ChangeListener } from './changes.js';
export { followRemoteChanges } from './remote-changes.js';
export {
  configure,
  currentConfig,
  setInPageServerLoader,
  clientFor,
  resolveTransport,
  onConfigure,
  signedInMember,
  MissingApiKeyError,
  type QuestboardConfig,
  type ClientOverrides,
  type ResolvedTransport,
  type ConfigureChange,
} from './config.js';
export { connectServiceWorker, type WorkerConnection } from './service-worker.js';
export { TRUSTED_TYPES_POLICY_NAME } from './trusted-types.js';
export type * from '../api/responses.js';

// Bundler users get the in-page fallback from this package's own modules, as a lazy chunk.
setInPageServerLoader(loadBundledServer);
setChangeStreamReaderLoader(() => import('./change-stream-reader.js'));
