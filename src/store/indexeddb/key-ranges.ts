// Ranges over array keys: an app's records, a board's groups, a group's runs.

/** Sorts after every number, date, string and binary key, so it closes a range of array keys. */
const AFTER_ALL: [] = [];

/** Every key that starts with `prefix`, from `from` on (by default, all of them). */
export const prefixRange = (prefix: IDBValidKey[], from: IDBValidKey = prefix) => IDBKeyRange.bound(from, [...prefix, AFTER_ALL]);
