import { QUESTBOARD_VERSION } from './version.js';

/**
 * Where the script-tag embed publishes its kit (./kit.ts) for the elements it loads on demand:
 * a symbol of this version, so a lazy file only ever meets the embed it was built with.
 */
export const KIT_GLOBAL = Symbol.for(`questboard.kit@${QUESTBOARD_VERSION}`);
