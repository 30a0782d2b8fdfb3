import { hash, verify } from '@node-rs/argon2';

/** argon2 cost parameters; the algorithm is always argon2id (the library's default). */
export interface HashCost {
  /** KiB of memory per hash. */
  memoryCost: number;
  timeCost: number;
}

/** OWASP's argon2id baseline (19 MiB, 2 passes): about 20-40 ms per hash on a small server. */
export const PRODUCTION_HASH_COST: HashCost = { memoryCost: 19_456, timeCost: 2 };

/** Hashes and checks login and fund passwords. */
export class PasswordHasher {
  private decoy: Promise<string> | undefined;

  constructor(private readonly cost: HashCost = PRODUCTION_HASH_COST) {}

  hash(password: string): Promise<string> {
    return hash(password, { ...this.cost, parallelism: 1 });
  }

  /** False for a wrong password and for a hash that cannot be parsed. */
  async verify(hashed: string, password: string): Promise<boolean> {
    try {
      return await verify(hashed, password);
    } catch {
      return false;
    }
  }

  /**
   * Spends the time of one verification and answers false: used when the account does not exist, so a
   * wrong account and a wrong password take about as long (no account probing by timing).
   */
  async verifyDecoy(password: string): Promise<false> {
    this.decoy ??= this.hash('decoy password, never matches');
    await this.verify(await this.decoy, password);
    return false;
  }
}
