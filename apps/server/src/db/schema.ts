// Tables, as Kysely sees them. Times are epoch milliseconds; lists are JSON text so one schema
// serves SQLite and PostgreSQL alike.
export interface FileTable {
  id: string;
  owner_id: string;
  name: string;
  size: number;
  md5: string;
  storage_key: string;
  /** 0 until known (e.g. an encrypted file before its password is given) */
  total_page: number;
  page_w: number;
  page_h: number;
  encrypted: number;
  /** 1 when the upload was damaged and a repaired copy is what is stored */
  repaired: number;
  /** The tool of the task whose output this file is (document/output-as-file); '' for an upload */
  source_tool: string;
  created_at: number;
  expires_at: number;
}

export interface UploadTable {
  id: string;
  owner_id: string;
  filename: string;
  size: number;
  md5: string;
  part_size: number;
  total_parts: number;
  created_at: number;
  expires_at: number;
}

export type TaskState = 'queued' | 'running' | 'done' | 'failed';

export interface TaskTable {
  id: string;
  multi_id: string;
  owner_id: string;
  tool: string;
  /** JSON: the validated call body */
  params: string;
  state: TaskState;
  progress: number;
  error_code: number;
  /** The failure's message in English */
  error_msg: string;
  /** JSON {key, params} of texts/words.ts when the failure's words name a page, a field, a size: said in the reader's language */
  error_said?: string | null;
  attempts: number;
  /** JSON array of {index, name, size, key} */
  outputs: string;
  lease_until: number;
  created_at: number;
  /** When a worker last claimed it; 0 while it never ran. */
  started_at: number;
  finished_at: number;
  expires_at: number;
  /** Keyed hash of the address the task was asked from ('' for the instance's own): its queued work is bounded, and workers take turns between addresses */
  client_key: string;
  /** Estimated work (tools/budget.ts: megapixels rendered, a page of simpler work counted as one) */
  work: number;
}

export interface AccountTable {
  id: string;
  /** Lower case; unique */
  email: string;
  /** scrypt$N$r$p$salt$hash (base64): the parameters travel with the hash so they can be raised later */
  password_hash: string;
  /** 1 once a mailed link (or the operator) confirmed the address */
  email_verified: number;
  /** free, premium, ai or premium_ai */
  plan: string;
  first_name: string;
  last_name: string;
  avatar: string;
  career: string;
  created_at: number;
  /** user, or operator: may list accounts and change their plans */
  role: AccountRole;
  /** The last sign-in or refresh; 0: never */
  last_seen_at: number;
  /** The code of the account's invite link; null until the account first asks for it */
  invite_code: string | null;
  /** AI tokens earned by invites, on top of the plan's */
  bonus_tokens: number;
}

export type AccountRole = 'user' | 'operator';

export interface SessionTable {
  /** SHA-256 (hex) of the token the client holds: the table alone signs nobody in */
  id: string;
  /** Random; what the account names when it ends the session (never the token or its hash) */
  public_id: string;
  account_id: string;
  /** Browser and operating system, from the User-Agent at sign-in; '' if unknown */
  device: string;
  created_at: number;
  expires_at: number;
  /** Updated at most once a minute */
  last_used_at: number;
}

/** The links the account mails. */
export type MailedLinkPurpose = 'verify' | 'reset' | 'email';
/** A mailed link's, or a session link's: a product link's `?token=` that signs a browser in once. */
export type AccountTokenPurpose = MailedLinkPurpose | 'session';

/** The single-use token of a mailed link or a session link. */
export interface AccountTokenTable {
  /** SHA-256 (hex) of the token the link carries */
  id: string;
  account_id: string;
  purpose: AccountTokenPurpose;
  /** The address the link was sent to: for an email change, the new address */
  email: string;
  created_at: number;
  expires_at: number;
}

/** A visitor or account seen adding bytes (an upload, a task) from an address: the bytes an address holds are its owners'. */
export interface OwnerAddressTable {
  /** HMAC-SHA256 (hex) of the address, under the data folder's key (as anonymous_runs keys it) */
  address_key: string;
  owner_id: string;
  /** The last time; forgotten once what it added is past retention */
  seen_at: number;
}

/** Runs an anonymous client started on one UTC day. */
export interface AnonymousRunTable {
  /** HMAC-SHA256 (hex) of the visitor id or the address, under the data folder's key */
  client_key: string;
  /** YYYY-MM-DD, UTC */
  day: string;
  runs: number;
}

/** An account's identity at a single sign-on provider: the provider's (issuer, subject) names one person for good. */
export interface SsoIdentityTable {
  issuer: string;
  subject: string;
  account_id: string;
  created_at: number;
}

/** A single sign-on under way: what its callback must check and where it goes back to. */
export interface SsoLoginTable {
  /** SHA-256 (hex) of the state, which the browser holds in a cookie and the provider sends back */
  id: string;
  nonce: string;
  code_verifier: string;
  return_path: string;
  /** The invite code the sign-in started with (the referral programme) */
  invite?: string | null;
  created_at: number;
  expires_at: number;
}

/** A personal API key: it acts for its account on the tools API until revoked. */
export interface ApiKeyTable {
  /** Random; what the account names when it revokes the key (not the key) */
  id: string;
  /** SHA-256 (hex) of the key the client holds: the table alone opens nothing */
  hash: string;
  account_id: string;
  name: string;
  /** The key's first characters, shown in the list */
  hint: string;
  created_at: number;
  /** Updated at most once a minute; null until first used */
  last_used_at: number | null;
}

/** A folder of an account's document cloud. */
export interface CloudFolderTable {
  id: string;
  account_id: string;
  /** '' at the top (null in the API) */
  parent_id: string;
  name: string;
  /** The name in lower case: names are unique in their folder, case-insensitively */
  name_key: string;
  created_at: number;
  updated_at: number;
}

/** A file of an account's document cloud, kept until deleted. */
export interface CloudFileTable {
  id: string;
  account_id: string;
  /** '' at the top (null in the API) */
  folder_id: string;
  name: string;
  /** The name in lower case: names are unique in their folder, case-insensitively */
  name_key: string;
  size: number;
  md5: string;
  /** cloud/<account>/<id> */
  storage_key: string;
  /** 0 when not a PDF or not known (encrypted) */
  total_page: number;
  encrypted: number;
  starred: number;
  created_at: number;
  /** The last upload, rename or move */
  updated_at: number;
  /** The last download, use as a tool's input or preview; null: never */
  opened_at: number | null;
  /** 1 once removed from the recent list (until opened again) */
  hidden_from_recent: number;
}

/** A file shared by link, QR code or email (ShareType), open to any signed-in account that has its code until it ends. */
export interface ShareTable {
  id: string;
  /** 128 random bits, base64url: the link's secret */
  code: string;
  owner_id: string;
  share_type: number;
  file_name: string;
  file_size: number;
  /** The share's own copy (shares/<id>/…) of a tool file or task output; '' for a cloud file, or once the copy is removed */
  storage_key: string;
  /** The cloud file shared by reference; '' for a copy */
  cloud_file_id: string;
  /** JSON array of the addresses an email share was sent to */
  recipients: string;
  /** 1, 3, 7 or 3650 (permanent) */
  days: number;
  /** The web app's language prefix the link opens the page in; '' for English */
  lang: string;
  created_at: number;
  expires_at: number;
  /** 0 while not revoked */
  revoked_at: number;
  /** Downloads through the share */
  opened: number;
}

/** An account's cloud as a whole (a row once it adds a file or receives the free space). */
export interface CloudAccountTable {
  account_id: string;
  /** When the account received the free 10 GB (capacity/receive); null: not received */
  received_at: number | null;
}

export interface TemplateUseTable {
  template_id: string;
  uses: number;
}

/** A saved signature of an account: a PNG (base64) made by drawing, typing or uploading. */
export interface SignatureTable {
  id: string;
  account_id: string;
  kind: 'drawn' | 'typed' | 'uploaded';
  png: string;
  width: number;
  height: number;
  created_at: number;
}

/** Signing tasks an account finished, and the marks (placements) they applied. */
export interface SignCountTable {
  account_id: string;
  tasks: number;
  marks: number;
}

/** A file's analysis for the AI tools: one per account and file (a cloud file's id or a tool file's). */
export interface AiAnalysisTable {
  id: string;
  account_id: string;
  file_id: string;
  file_name: string;
  status: 'init' | 'uploading' | 'analyses' | 'success' | 'failed';
  /** The catalogue code a failed analysis ended with; 0 otherwise. */
  error_code: number;
  total_page: number;
  /** Pages analysed: the first ones, up to the plan's pages per analysis. */
  pages: number;
  text_chars: number;
  /** JSON: the classic summary (text, keywords, outline from bookmarks or headings, questions), made with the analysis; '' before. */
  summary: string;
  created_at: number;
  updated_at: number;
}

/** A passage of an analysed page, with its terms (JSON {term: count}) for retrieval. */
export interface AiChunkTable {
  analysis_id: string;
  seq: number;
  page: number;
  text: string;
  terms: string;
  /** Terms in the passage, counted with repeats. */
  length: number;
}

export interface AiConversationTable {
  id: string;
  account_id: string;
  analysis_id: string;
  title: string;
  /** 1: pinned at the top of the list. */
  top: number;
  /** The secret of its read-only share link; null until shared. */
  share_code: string | null;
  created_at: number;
  updated_at: number;
}

export interface AiMessageTable {
  id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  content: string;
  /** JSON: {page, text}[] */
  citations: string;
  tokens: number;
  created_at: number;
}

export interface AiNoteTable {
  id: string;
  account_id: string;
  analysis_id: string;
  page: number;
  text: string;
  created_at: number;
}

/** What an account spent of one AI quota (tokens, questions, detector characters) in one period. */
export interface AiUsageTable {
  account_id: string;
  /** bonus: the tokens invites earned (the referral programme) spent, always period 'total'. */
  kind: 'tokens' | 'questions' | 'detector' | 'bonus';
  /** 'total', or the calendar month (UTC) as YYYY-MM. */
  period: string;
  used: number;
}

/**
 * A friend's account created through an inviter's link: credited (both earn `reward` AI tokens) once
 * its address is confirmed; `credited_at` 0 until then. One row per friend, so a friend counts once.
 */
export interface ReferralTable {
  friend_id: string;
  inviter_id: string;
  /** The tokens the inviter earned for this friend; 0 until credited, and past the operator's cap */
  reward: number;
  created_at: number;
  credited_at: number;
}

/** A friend's address (keyed hash of it normalised) that earned a referral credit: once ever, whatever accounts come and go. */
export interface ReferredAddressTable {
  address_key: string;
  credited_at: number;
}

/** An operator's setting of the site (the referral reward, the activity event), by name. */
export interface SiteSettingTable {
  name: string;
  value: string;
}

/** A top banner an operator published: shown while its window (epoch seconds) holds the present. */
export interface BannerTable {
  id: string;
  title: string;
  jump_url: string;
  display_start: number;
  display_end: number;
  created_at: number;
}

/** A message or system notice an operator sent, to everyone, the accounts on a plan, or one account. */
export interface MessageTable {
  id: string;
  /** 1 message, 2 system notice */
  template_type: number;
  title: string;
  remark: string;
  icon_url: string;
  site_url: string;
  site_img: string;
  /** everyone, plan or account */
  audience: string;
  /** The plan, for audience plan; else empty */
  audience_plan: string;
  /** The account's id, for audience account; else empty */
  audience_account: string;
  /** The operator's account */
  sender_id: string;
  created_at: number;
}

/** A recipient (account:<id> or sign:<client signature>) has read a message. */
export interface MessageReadTable {
  message_id: string;
  recipient: string;
  read_at: number;
}

export interface Database {
  files: FileTable;
  uploads: UploadTable;
  tasks: TaskTable;
  accounts: AccountTable;
  sessions: SessionTable;
  account_tokens: AccountTokenTable;
  anonymous_runs: AnonymousRunTable;
  owner_addresses: OwnerAddressTable;
  sso_identities: SsoIdentityTable;
  sso_logins: SsoLoginTable;
  api_keys: ApiKeyTable;
  cloud_folders: CloudFolderTable;
  cloud_files: CloudFileTable;
  shares: ShareTable;
  cloud_accounts: CloudAccountTable;
  template_uses: TemplateUseTable;
  signatures: SignatureTable;
  sign_counts: SignCountTable;
  ai_analyses: AiAnalysisTable;
  ai_chunks: AiChunkTable;
  ai_conversations: AiConversationTable;
  ai_messages: AiMessageTable;
  ai_notes: AiNoteTable;
  ai_usage: AiUsageTable;
  banners: BannerTable;
  messages: MessageTable;
  message_reads: MessageReadTable;
  referrals: ReferralTable;
  referred_addresses: ReferredAddressTable;
  site_settings: SiteSettingTable;
}
