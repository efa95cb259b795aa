import { randomUUID } from 'node:crypto';

/** Ids are random and unguessable: knowing one is not enough to reach another owner's data. */
export const newId = () => randomUUID().replaceAll('-', '');

/**
 * The owner of an account's files, tasks and shares. Visitor ids are 32 hex digits from a cookie the
 * client could set to anything: account owners are outside that form, so no cookie names one.
 */
export const accountOwner = (accountId: string) => `account:${accountId}`;
