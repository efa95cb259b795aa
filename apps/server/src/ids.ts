import { randomUUID } from 'node:crypto';

/** Ids are random and unguessable: knowing one is not enough to reach another owner's data. */
export const newId = () => randomUUID().replaceAll('-', '');
