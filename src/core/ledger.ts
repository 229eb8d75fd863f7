// Coin transfers from an app's treasury. Balances are integer tinybars and the
// check and the debit happen in the caller's one readwrite transaction, so
// parallel transfers are serialised by the store (an IndexedDB transaction, a
// locked row in SQL), from one process or many, and can never overdraw. Each
// transfer is kept in the same transaction, the ledger's history.
import { INVALID_INPUT, TRANSFER_PRE_CHECK } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { formatCoins, parseAccountId, parseCoins } from '../api/formats.js';
import type { AppRecord, Transaction, TransferRecord } from '../store/index.js';

/** Failures read as the ledger SDK words them, with its PascalCase codes. */
const preCheck = (reason: string) => new ApiError(TRANSFER_PRE_CHECK, { reason });

export interface Transfer {
  to_address: string;
  /** The amount's decimal text: a JSON number's shortest form or a query value. */
  quantity: string;
}

export async function transfer(
  tx: Transaction,
  app: AppRecord,
  { to_address, quantity }: Transfer,
  now: number,
): Promise<string> {
  const recipient = parseAccountId(to_address);
  if (!recipient) throw preCheck('InvalidAccountId');
  const amount = parseCoins(quantity);
  if (!amount.ok && amount.reason === 'not-a-number')
    throw new ApiError(INVALID_INPUT, { field: 'quantity', reason: 'must be a number' });
  if (!amount.ok && amount.reason !== 'too-large') throw preCheck('InvalidAccountAmounts');
  const treasury = app.treasury;
  if (!treasury) throw preCheck('PayerAccountNotFound');
  if (recipient.text === treasury.account_id) throw preCheck('AccountRepeatedInAccountAmounts');
  const balance = BigInt(treasury.balance);
  // An amount too large to parse is one no treasury can pay.
  if (!amount.ok || balance < amount.tinybars) throw preCheck('InsufficientPayerBalance');

  // Transaction ids must be unique: never reuse or go back from the last one.
  const nanos = BigInt(now) * 1_000_000n;
  const last = BigInt(treasury.last_tx_ns);
  const txNanos = nanos > last ? nanos : last + 1n;
  treasury.balance = (balance - amount.tinybars).toString();
  treasury.last_tx_ns = txNanos.toString();
  tx.put('apps', app);
  const seconds = txNanos / 1_000_000_000n;
  const fraction = (txNanos % 1_000_000_000n).toString().padStart(9, '0');
  const record: TransferRecord = {
    app_id: app.app_id,
    at: now,
    tx_id: `${treasury.account_id}-${seconds}-${fraction}`,
    from_account: treasury.account_id,
    to_address: recipient.text,
    amount: formatCoins(amount.tinybars),
    balance: formatCoins(BigInt(treasury.balance)),
  };
  await tx.appendTransfer(record);
  const { at: _at, ...data } = record;
  tx.recordEvent?.({ app_id: app.app_id, type: 'ledger.transfer', at: now, data });
  return record.tx_id;
}
