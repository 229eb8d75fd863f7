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
export type { InPageTransportOptions, InPageTransport } from './in-page-transport.js';
export { inPageTransport } from './local-in-page-transport.js';
export { subscribeToChanges, changeAffects, type ChangeNotice, type ChangeListener } from './changes.js';
export {
  configure,
  currentConfig,
  clientFor,
  resolveTransport,
  MissingApiKeyError,
  type QuestboardConfig,
  type ClientOverrides,
  type ResolvedTransport,
} from './config.js';
export { TRUSTED_TYPES_POLICY_NAME } from './trusted-types.js';
// The types of the API's answers, as the client returns them; the schemas that check them stay inside.
export type {
  ErrorBody,
  Acknowledged,
  Task,
  Challenge,
  UserInfo,
  Endorsement,
  TaskProgress,
  LeaderboardEntry,
  Leaderboard,
  LeaderboardHtml,
  AirdropResult,
  Health,
} from '../api/responses.js';

// Bundler users get the in-page fallback from this package's own modules, as a lazy chunk.
setInPageServerLoader(loadBundledServer);
setChangeStreamReaderLoader(() => import('./change-stream-reader.js'));
