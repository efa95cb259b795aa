import type { Kysely } from 'kysely';
import { newId } from '../ids.js';

export const migrations = {
  '001_init': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('files')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('owner_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('name', 'varchar(512)', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('md5', 'varchar(32)', (c) => c.notNull())
        .addColumn('storage_key', 'varchar(512)', (c) => c.notNull())
        .addColumn('total_page', 'integer', (c) => c.notNull())
        .addColumn('page_w', 'real', (c) => c.notNull())
        .addColumn('page_h', 'real', (c) => c.notNull())
        .addColumn('encrypted', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('files_expires').on('files').column('expires_at').execute();
      await db.schema
        .createTable('uploads')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('owner_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('filename', 'varchar(512)', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('md5', 'varchar(32)', (c) => c.notNull())
        .addColumn('part_size', 'integer', (c) => c.notNull())
        .addColumn('total_parts', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('uploads_owner_md5').on('uploads').columns(['owner_id', 'md5']).execute();
      await db.schema
        .createTable('tasks')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('multi_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('owner_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('tool', 'varchar(64)', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull())
        .addColumn('error_code', 'integer', (c) => c.notNull())
        .addColumn('error_msg', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('outputs', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tasks_state_created').on('tasks').columns(['state', 'created_at']).execute();
      await db.schema.createIndex('tasks_multi').on('tasks').column('multi_id').execute();
    },
  },
  '002_fair_queue': {
    // When each task started, so the worker can serve the visitor it served longest ago; and
    // per-visitor counts of queued and running tasks.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('tasks')
        .addColumn('started_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('tasks_owner_state').on('tasks').columns(['owner_id', 'state']).execute();
    },
  },
  '003_files_repaired': {
    // Whether the stored file is a repaired copy of a damaged upload, for as long as the file is kept.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('files')
        .addColumn('repaired', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '004_accounts': {
    // Accounts, their sessions and the tokens of mailed links; tokens are kept as hashes only.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('email', 'varchar(320)', (c) => c.notNull().unique())
        .addColumn('password_hash', 'varchar(256)', (c) => c.notNull())
        .addColumn('email_verified', 'integer', (c) => c.notNull())
        .addColumn('plan', 'varchar(16)', (c) => c.notNull())
        .addColumn('first_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('last_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('avatar', 'varchar(512)', (c) => c.notNull())
        .addColumn('career', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();
      await db.schema
        .createTable('account_tokens')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
        .addColumn('email', 'varchar(320)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('account_tokens_account').on('account_tokens').column('account_id').execute();
    },
  },
  '005_anonymous_runs': {
    // Runs (tasks, or tasks of one multi_id) each anonymous visitor and each address started per
    // UTC day. Keys are keyed hashes: the table never holds a visitor id or an address.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('anonymous_runs')
        .addColumn('client_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('runs', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('anonymous_runs_pk', ['client_key', 'day'])
        .execute();
    },
  },
  '006_sso': {
    // Single sign-on: which provider identity opens which account, and the sign-ins under way.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sso_identities')
        .addColumn('issuer', 'varchar(512)', (c) => c.notNull())
        .addColumn('subject', 'varchar(255)', (c) => c.notNull())
        .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('sso_identities_pk', ['issuer', 'subject'])
        .execute();
      await db.schema.createIndex('sso_identities_account').on('sso_identities').column('account_id').execute();
      await db.schema
        .createTable('sso_logins')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('nonce', 'varchar(128)', (c) => c.notNull())
        .addColumn('code_verifier', 'varchar(128)', (c) => c.notNull())
        .addColumn('return_path', 'varchar(2048)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '007_api_keys': {
    // Personal API keys: like sessions, only the SHA-256 of the key is kept; the hint is its first characters.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('hint', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
    },
  },
  '008_operators': {
    // Operators (granted by the operator's command), and when each account was last seen signing in
    // or refreshing, for the operator's list.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('accounts')
        .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('user'))
        .execute();
      await db.schema
        .alterTable('accounts')
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '009_session_ids': {
    // Sessions an account can list and end one by one: a public id (the row's id is the token's
    // hash, which must never leave the server), the device it signed in from, and its last use.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('sessions')
        .addColumn('public_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('sessions')
        .addColumn('device', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('sessions')
        .addColumn('last_used_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      const sessions = db as unknown as Kysely<{ sessions: { id: string; public_id: string; created_at: number; last_used_at: number } }>;
      // Sessions signed in before this get an id each; their last use is unknown, so their start stands in.
      for (const { id } of await sessions.selectFrom('sessions').select('id').execute())
        await sessions
          .updateTable('sessions')
          .set((eb) => ({ public_id: newId(), last_used_at: eb.ref('created_at') }))
          .where('id', '=', id)
          .execute();
      await db.schema.createIndex('sessions_public_id').on('sessions').column('public_id').unique().execute();
    },
  },
  '010_cloud': {
    // The document cloud: an account's folders and files, kept until deleted (never swept). The top
    // of the cloud is the folder '' rather than null, so the unique indexes on (account, folder,
    // name_key) hold there too: name_key is the name in lower case, compared case-insensitively.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('cloud_folders')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('parent_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('name', 'varchar(512)', (c) => c.notNull())
        .addColumn('name_key', 'varchar(512)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('cloud_folders_name')
        .on('cloud_folders')
        .columns(['account_id', 'parent_id', 'name_key'])
        .unique()
        .execute();
      await db.schema
        .createTable('cloud_files')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('folder_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('name', 'varchar(512)', (c) => c.notNull())
        .addColumn('name_key', 'varchar(512)', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('md5', 'varchar(32)', (c) => c.notNull())
        .addColumn('storage_key', 'varchar(512)', (c) => c.notNull())
        .addColumn('total_page', 'integer', (c) => c.notNull())
        .addColumn('encrypted', 'integer', (c) => c.notNull())
        .addColumn('starred', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('opened_at', 'bigint')
        .addColumn('hidden_from_recent', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('cloud_files_name').on('cloud_files').columns(['account_id', 'folder_id', 'name_key']).unique().execute();
      await db.schema.createIndex('cloud_files_opened').on('cloud_files').columns(['account_id', 'opened_at']).execute();
    },
  },
  '011_shares': {
    // Shares of a file by link, QR code or email. The code is the link's secret and the owner lists
    // it, so it is kept as it is (unique); the copy of a tool file or task output lives under
    // shares/<id>/ until the share ends, and a cloud file is referenced instead.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('shares')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('owner_id', 'varchar(128)', (c) => c.notNull())
        .addColumn('share_type', 'integer', (c) => c.notNull())
        .addColumn('file_name', 'varchar(1024)', (c) => c.notNull())
        .addColumn('file_size', 'bigint', (c) => c.notNull())
        .addColumn('storage_key', 'varchar(1024)', (c) => c.notNull())
        .addColumn('cloud_file_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('recipients', 'text', (c) => c.notNull())
        .addColumn('days', 'integer', (c) => c.notNull())
        .addColumn('lang', 'varchar(8)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint', (c) => c.notNull())
        .addColumn('opened', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('shares_owner_created').on('shares').columns(['owner_id', 'created_at']).execute();
      await db.schema.createIndex('shares_expires').on('shares').column('expires_at').execute();
    },
  },
  '012_cloud_capacity': {
    // An account's cloud as a whole: whether it received the free 10 GB, and the row each add
    // writes first, so that adds of one account take turns (also across API processes).
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('cloud_accounts')
        .addColumn('account_id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('received_at', 'bigint')
        .execute();
    },
  },
  '013_templates': {
    // How often each template was used (template/add-num), by its id: the shipped ones' slug or an operator file's.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('template_uses')
        .addColumn('template_id', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('uses', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  '014_signatures': {
    // Saved signatures of an account (a PNG, at most 512 KB and 20 an account, so the row holds it
    // as base64 and goes with it in one delete), and how many signing tasks and marks it applied.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('signatures')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('png', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('signatures_account').on('signatures').columns(['account_id', 'created_at']).execute();
      await db.schema
        .createTable('sign_counts')
        .addColumn('account_id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('tasks', 'bigint', (c) => c.notNull())
        .addColumn('marks', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '015_ai': {
    // The AI layer: a file's analysis for chat (its status, the first pages' text in chunks with
    // their page and terms, and the summary made from its text and outline), an account's
    // conversations with their messages and notes, and what each account spent of each AI quota in
    // each period ('total', or a calendar month as YYYY-MM).
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ai_analyses')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('file_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('file_name', 'varchar(512)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('error_code', 'integer', (c) => c.notNull())
        .addColumn('total_page', 'integer', (c) => c.notNull())
        .addColumn('pages', 'integer', (c) => c.notNull())
        .addColumn('text_chars', 'integer', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ai_analyses_file').on('ai_analyses').columns(['account_id', 'file_id']).unique().execute();
      await db.schema
        .createTable('ai_chunks')
        .addColumn('analysis_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('page', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('terms', 'text', (c) => c.notNull())
        .addColumn('length', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('ai_chunks_pk', ['analysis_id', 'seq'])
        .execute();
      await db.schema
        .createTable('ai_conversations')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('analysis_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('title', 'varchar(512)', (c) => c.notNull())
        .addColumn('top', 'integer', (c) => c.notNull())
        .addColumn('share_code', 'varchar(64)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ai_conversations_account').on('ai_conversations').columns(['account_id', 'updated_at']).execute();
      await db.schema.createIndex('ai_conversations_share').on('ai_conversations').column('share_code').unique().execute();
      await db.schema
        .createTable('ai_messages')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('conversation_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('role', 'varchar(16)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('citations', 'text', (c) => c.notNull())
        .addColumn('tokens', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ai_messages_conversation').on('ai_messages').columns(['conversation_id', 'created_at']).execute();
      await db.schema
        .createTable('ai_notes')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('analysis_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('page', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ai_notes_analysis').on('ai_notes').columns(['account_id', 'analysis_id']).execute();
      await db.schema
        .createTable('ai_usage')
        .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('period', 'varchar(8)', (c) => c.notNull())
        .addColumn('used', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('ai_usage_pk', ['account_id', 'kind', 'period'])
        .execute();
    },
  },
  '016_files_source_tool': {
    // The tool whose output a file is (output-as-file): a visitor's editor saves, each on the file
    // the save before made, count as one task of the day.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('files')
        .addColumn('source_tool', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  },
  '017_banners': {
    // The top message banners operators publish (spec §7.7).
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('banners')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('jump_url', 'varchar(2000)', (c) => c.notNull())
        .addColumn('display_start', 'bigint', (c) => c.notNull())
        .addColumn('display_end', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '018_messages': {
    // The message centre (spec §7.5): operators' messages and notices, and who has read each.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('messages')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('template_type', 'integer', (c) => c.notNull())
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('remark', 'varchar(2000)', (c) => c.notNull())
        .addColumn('icon_url', 'varchar(2000)', (c) => c.notNull())
        .addColumn('site_url', 'varchar(2000)', (c) => c.notNull())
        .addColumn('site_img', 'varchar(2000)', (c) => c.notNull())
        .addColumn('audience', 'varchar(16)', (c) => c.notNull())
        .addColumn('audience_plan', 'varchar(32)', (c) => c.notNull())
        .addColumn('audience_account', 'varchar(64)', (c) => c.notNull())
        .addColumn('sender_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('messages_created').on('messages').column('created_at').execute();
      await db.schema
        .createTable('message_reads')
        .addColumn('message_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('recipient', 'varchar(160)', (c) => c.notNull())
        .addColumn('read_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('message_reads_pk', ['message_id', 'recipient'])
        .execute();
      await db.schema.createIndex('message_reads_recipient').on('message_reads').column('recipient').execute();
    },
  },
  '019_referrals': {
    // The referral programme and the activity event (spec §2): each account's invite code (given
    // the first time it is asked for, so NULL until then: the unique index allows many), the AI
    // tokens invites earned it, one row per invited friend, and the operator's settings.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('accounts').addColumn('invite_code', 'varchar(16)').execute();
      await db.schema
        .alterTable('accounts')
        .addColumn('bonus_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('accounts_invite_code').unique().on('accounts').column('invite_code').execute();
      await db.schema
        .createTable('referrals')
        .addColumn('friend_id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('inviter_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('reward', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('credited_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('referrals_inviter').on('referrals').column('inviter_id').execute();
      await db.schema
        .createTable('site_settings')
        .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'varchar(2000)', (c) => c.notNull())
        .execute();
    },
  },
  '020_task_failure_words': {
    // A failed task's words, as well as its English message, so whoever reads it gets them in
    // their own language (ADR 0507).
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('tasks').addColumn('error_said', 'varchar(2000)').execute();
    },
  },
  '021_sso_invite': {
    // The invite code a single sign-on started with: the account it makes is the inviter's friend.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sso_logins').addColumn('invite', 'varchar(64)').execute();
    },
  },
  '022_owner_addresses': {
    // Which visitors and accounts added bytes from which address: an address's bytes held are the
    // sum of its owners', so many cookies from one address cannot fill the volume (ADR 0512).
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('owner_addresses')
        .addColumn('address_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('owner_id', 'varchar(160)', (c) => c.notNull())
        .addColumn('seen_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('owner_addresses_pk', ['address_key', 'owner_id'])
        .execute();
      await db.schema.createIndex('owner_addresses_seen').on('owner_addresses').column('seen_at').execute();
    },
  },
  '023_fairness': {
    // Fairness across owners and addresses (issue 25): each task's client address (a keyed hash)
    // and its estimated work, so one address's queued work is bounded and workers take turns
    // between addresses; and the addresses that earned a referral credit, kept past the account's
    // deletion so that one mailbox earns it once.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('tasks')
        .addColumn('client_key', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('tasks')
        .addColumn('work', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('tasks_client_state').on('tasks').columns(['client_key', 'state']).execute();
      await db.schema
        .createTable('referred_addresses')
        .addColumn('address_key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('credited_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
};
