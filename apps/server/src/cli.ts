// Operator commands: `npm run quire -- <command>`. Passwords are read from standard input, never
// from the command line, which any local user can read.
import { parseArgs } from 'node:util';
import {
  email as emailSchema,
  isQuireError,
  messageSendRequest,
  newPassword,
  plan as planSchema,
  plans,
  type Plan,
} from '@quire/contracts';
import { z } from 'zod';
import { startingConfig } from './config.js';
import { createContext, type AppContext } from './context.js';
import { createAccount, markVerified, replacePassword, setPlan, setRole } from './services/accounts.js';
import { sendMessage } from './services/messages.js';

const PLANS = plans.join('|');
const USAGE = `Usage: npm run quire -- <command>
  users:create --email EMAIL [--plan ${PLANS}] [--operator]
                                        the password is read from standard input
  users:plan EMAIL ${PLANS}
  users:operator EMAIL on|off           may use the operator's page (/admin) and calls, or no longer
  users:password EMAIL                  a new password, read from standard input; every session ends
  users:verify EMAIL                    confirms the address (for servers without mail)
  messages:send --to everyone|PLAN|EMAIL --title TITLE [--kind message|system] [--remark TEXT]
                [--link URL] [--image URL] [--icon URL]
                                        a message (or system notice) under the bell of everyone,
                                        the accounts on a plan, or one account`;

class UsageError extends Error {}

function parsed<T>(schema: z.ZodType<T>, value: string | undefined, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new UsageError(`${what}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password (then Enter and Ctrl-D): ');
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  return input.replace(/\r?\n$/, '');
}

const commands: Record<string, (ctx: AppContext, args: string[]) => Promise<string>> = {
  async 'users:create'(ctx, args) {
    const { values } = parseArgs({
      args,
      options: { email: { type: 'string' }, plan: { type: 'string', default: 'free' }, operator: { type: 'boolean', default: false } },
    });
    const email = parsed(emailSchema, values.email, '--email');
    const plan: Plan = parsed(planSchema, values.plan, '--plan');
    const password = parsed(newPassword, await readPassword(), 'password');
    const account = await createAccount(ctx, email, password, plan, values.operator ? 'operator' : 'user');
    return `Created ${account.email} (${account.id}) on the ${plan} plan${values.operator ? ', an operator' : ''}.`;
  },
  async 'users:plan'(ctx, args) {
    const { positionals } = parseArgs({ args, allowPositionals: true });
    const email = parsed(emailSchema, positionals[0], 'email');
    const plan = parsed(planSchema, positionals[1], 'plan');
    await setPlan(ctx, email, plan);
    return `${email} is on the ${plan} plan.`;
  },
  async 'users:operator'(ctx, args) {
    const { positionals } = parseArgs({ args, allowPositionals: true });
    const email = parsed(emailSchema, positionals[0], 'email');
    const on = parsed(z.enum(['on', 'off']), positionals[1], 'on or off') === 'on';
    await setRole(ctx, email, on ? 'operator' : 'user');
    return on ? `${email} is an operator.` : `${email} is no longer an operator.`;
  },
  async 'users:password'(ctx, args) {
    const { positionals } = parseArgs({ args, allowPositionals: true });
    const email = parsed(emailSchema, positionals[0], 'email');
    await replacePassword(ctx, email, parsed(newPassword, await readPassword(), 'password'));
    return `${email} has a new password; its sessions have ended.`;
  },
  async 'users:verify'(ctx, args) {
    const { positionals } = parseArgs({ args, allowPositionals: true });
    const email = parsed(emailSchema, positionals[0], 'email');
    await markVerified(ctx, email);
    return `${email} is confirmed.`;
  },
  async 'messages:send'(ctx, args) {
    const { values } = parseArgs({
      args,
      options: {
        to: { type: 'string' },
        kind: { type: 'string', default: 'message' },
        title: { type: 'string' },
        remark: { type: 'string', default: '' },
        link: { type: 'string', default: '' },
        image: { type: 'string', default: '' },
        icon: { type: 'string', default: '' },
      },
    });
    const to = parsed(z.string().min(1), values.to, '--to');
    const kind = parsed(z.enum(['message', 'system']), values.kind, '--kind');
    const audience =
      to === 'everyone' ? { audience: 'everyone' } : to.includes('@') ? { audience: 'account', email: to } : { audience: 'plan', plan: to };
    const body = messageSendRequest.safeParse({
      ...audience,
      template_type: kind === 'message' ? 1 : 2,
      title: values.title,
      remark: values.remark,
      site_url: values.link,
      site_img: values.image,
      icon_url: values.icon,
    });
    if (!body.success) {
      const issue = body.error.issues[0];
      throw new UsageError(`${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}`);
    }
    const sent = await sendMessage(ctx, undefined, body.data);
    return `Sent the ${kind === 'message' ? 'message' : 'system notice'} ${sent.message_id} to ${to}.`;
  },
};

const [name, ...args] = process.argv.slice(2);
const command = name === undefined ? undefined : commands[name];
if (!command) {
  console.error(USAGE);
  process.exit(2);
}
const ctx = await createContext(startingConfig([]));
try {
  console.log(await command(ctx, args));
} catch (e) {
  const badArguments = String((e as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS');
  if (!(e instanceof UsageError || isQuireError(e) || badArguments)) throw e;
  console.error(isQuireError(e) ? `${e.message} (${e.code})` : `${(e as Error).message}\n${USAGE}`);
  process.exitCode = 1;
} finally {
  await ctx.db.destroy();
}
