// Endorsements: one member vouching for another, worth XP to the receiver.
import { SELF_ENDORSEMENT } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import type { AppRecord, Transaction } from '../store/index.js';
import { awardCrossed, standingOf } from './badges.js';
import { earnXp, tellLevelChange } from './member-totals.js';
import { findMember } from './lookups.js';

export interface Endorsement {
  from_account: string;
  to_account: string;
  endorsement_id: string;
  at: number;
  /** An import replaying history: told to no webhook (progress.ts, Log.replay). */
  replay?: true;
}

/** Returns whether anything changed: the same endorsement twice is kept once, and changes nothing. */
export async function endorse(tx: Transaction, app: AppRecord, endorsement: Endorsement): Promise<boolean> {
  const { from_account, to_account, endorsement_id, at } = endorsement;
  if (from_account === to_account) throw new ApiError(SELF_ENDORSEMENT);
  const key: [string, string, string, string] = [app.app_id, from_account, to_account, endorsement_id];
  // Read together: the SQL store sends them in one round trip, not three.
  await Promise.all([
    tx.getMany('users', [
      [app.app_id, from_account],
      [app.app_id, to_account],
    ]),
    tx.get('endorsements', key),
  ]);
  await findMember(tx, app.app_id, from_account, 'from_account');
  const receiver = await findMember(tx, app.app_id, to_account, 'to_account');
  if (await tx.get('endorsements', key)) return false;
  tx.put('endorsements', { app_id: app.app_id, from_account, to_account, endorsement_id, at });
  const before = standingOf(receiver);
  const xpBefore = receiver.xp;
  earnXp(receiver, app.endorsement_xp, at);
  await awardCrossed(tx, app, receiver, before, at);
  if (!endorsement.replay) tellLevelChange(tx, receiver, xpBefore, at);
  tx.put('users', receiver);
  return true;
}
