// Rate limits per client: a token bucket per visitor (or, for account calls, per address) and per
// IP address for each kind of call, and for password checks per account, kept in this process's
// memory (each API process counts its own requests).
import { ErrorCode, QuireError } from '@quire/contracts';
import type { Config, RateLimit } from '../config.js';
import { countedAddress } from './clientKeys.js';

/** 3500 answered with HTTP 429 and a Retry-After of `retryAfterS`. */
export class RateLimited extends QuireError {
  constructor(readonly retryAfterS: number) {
    super(ErrorCode.Busy);
  }
}

/** `account`: sign-in attempts, other password checks and the calls that send mail. */
export type RateLimitedCall = 'upload' | 'task' | 'account';

interface Bucket {
  tokens: number;
  at: number;
}

/** Beyond this many clients, buckets that have filled up again are forgotten. */
const PRUNE_ABOVE = 10_000;

class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  constructor(private readonly limit: RateLimit) {}

  /** Tokens `key` has now. */
  private refill(key: string, now: number): Bucket {
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, at: now };
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.limit.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    return bucket;
  }

  /** Seconds until `key` has a token; 0 when it has one now. */
  wait(key: string, now: number): number {
    const { tokens } = this.refill(key, now);
    return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / this.limit.perSecond);
  }

  take(key: string, now: number) {
    this.refill(key, now).tokens -= 1;
    if (this.buckets.size > PRUNE_ABOVE) this.prune(now);
  }

  private prune(now: number) {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.limit.perSecond >= this.limit.burst) this.buckets.delete(key);
    }
  }
}

/**
 * A password check of one account counts at this many times the rate limit anywhere: guessing
 * from many addresses stays bounded, and one address's flood locks out only that address.
 */
const ACCOUNT_FACTOR = 10;

export class RateLimits {
  private readonly perCall: Record<RateLimitedCall, { visitor: TokenBuckets; ip: TokenBuckets }>;
  private readonly passwordChecks: TokenBuckets;

  constructor(config: Pick<Config, 'uploadRate' | 'taskRate' | 'accountRate' | 'ipRateFactor'>) {
    const times = (limit: RateLimit, factor: number) =>
      new TokenBuckets({ perSecond: limit.perSecond * factor, burst: limit.burst * factor });
    const buckets = (limit: RateLimit) => ({ visitor: new TokenBuckets(limit), ip: times(limit, config.ipRateFactor) });
    this.perCall = { upload: buckets(config.uploadRate), task: buckets(config.taskRate), account: buckets(config.accountRate) };
    this.passwordChecks = times(config.accountRate, ACCOUNT_FACTOR);
  }

  /** Counts one call of the client (a visitor, an account or an address) from `ip`, or throws RateLimited when either has none left. */
  take(call: RateLimitedCall, client: string, ip: string, now = Date.now()) {
    const { visitor, ip: ips } = this.perCall[call];
    takeEach(
      [
        [visitor, client],
        [ips, ip],
      ],
      now,
    );
  }

  /**
   * Counts one password check of `account` (its address or id) from `ip`: against the account at
   * that address, the address, and the account everywhere at ACCOUNT_FACTOR times the rate.
   */
  takePasswordCheck(account: string, ip: string, now = Date.now()) {
    const { visitor, ip: ips } = this.perCall.account;
    takeEach(
      [
        [visitor, `${account}\n${countedAddress(ip)}`],
        [ips, ip],
        [this.passwordChecks, account],
      ],
      now,
    );
  }
}

/** Takes a token from each bucket's key, or none and throws RateLimited when one has none left. */
function takeEach(keyed: [TokenBuckets, string][], now: number) {
  const wait = Math.max(...keyed.map(([buckets, key]) => buckets.wait(key, now)));
  if (wait > 0) throw new RateLimited(wait);
  for (const [buckets, key] of keyed) buckets.take(key, now);
}
