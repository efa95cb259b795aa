// The message a single sign-on's callback page posts to the sign-in dialog: its own module, which
// the page imports only when a message comes (ADR 0542).
import { z } from 'zod';

export const ssoMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('loginSuccessed') }),
  z.object({ type: z.literal('loginFailed'), code: z.number() }),
]);
export type SsoMessage = z.infer<typeof ssoMessage>;
