import { createHash } from 'node:crypto';
import { DEFAULT_BUCKET, UserAllocation, type BucketConfig } from './user-allocation.js';

/** Allocations by user key, shared by every client that is given the same registry. */
export class RateLimitRegistry {
  private readonly allocations = new Map<string, UserAllocation>();

  constructor(private readonly bucket: Readonly<BucketConfig> = DEFAULT_BUCKET) {}

  /** The allocation of a user; the key is hashed so the registry never holds a token as text. */
  allocationFor(userKey: string): UserAllocation {
    const key = hashKey(userKey);
    let allocation = this.allocations.get(key);
    if (allocation === undefined) {
      allocation = new UserAllocation(this.bucket);
      this.allocations.set(key, allocation);
    }
    return allocation;
  }
}

function hashKey(userKey: string): string {
  return createHash('sha256').update(userKey).digest('hex').slice(0, 32);
}

let processRegistry: RateLimitRegistry | undefined;

/** The process-wide registry clients use unless given one (created on first use, not at import). */
export function defaultRateLimitRegistry(): RateLimitRegistry {
  processRegistry ??= new RateLimitRegistry();
  return processRegistry;
}
