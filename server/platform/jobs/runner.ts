import { randomUUID } from 'node:crypto';
import type { LeaseStore } from './leases';

/**
 * The one runner of background work (DESIGN "The trading engine": jobs). A job is a function over the database's
 * state, run every `everyMs`:
 * - `cluster` jobs (settlement, accrual, expiry, writing the price record) run in exactly one process at a time:
 *   the runner holds a lease per job and renews it at every round; a process that crashes stops renewing and
 *   another takes over when the lease lapses. Their effects must be idempotent (the same round run twice, or a
 *   round cut short by a crash and run again elsewhere, changes nothing more), since a lease can lapse during a slow
 *   round.
 * - `process` jobs run in every process, for work about its own resources (its sockets, its buffers).
 * A round never overlaps the previous round of the same job; an error is logged and the next round runs as usual.
 */

export interface Job {
  name: string;
  scope: 'cluster' | 'process';
  everyMs: number;
  /**
   * One round. `leading` is false for a cluster job's round in a process that does not hold its lease. A long round
   * keeps its lease (renewed every third of its ttl while it runs); `stillLeading()` turns false as soon as a renewal
   * fails, so a job can stop before another process takes over.
   */
  run(round: Round): Promise<void> | void;
  /**
   * Cluster jobs only: also called (with leading false) in the processes that do not hold the lease, so a job can
   * drop what it buffered for nothing. Default: not called.
   */
  runWhenFollowing?: boolean;
}

export interface Round {
  leading: boolean;
  stillLeading(): boolean;
}

export interface JobRunnerOptions {
  leases: LeaseStore;
  onError?: (job: string, err: unknown) => void;
  /** This process's name in the leases (default a random id). */
  owner?: string;
}

interface Scheduled {
  job: Job;
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
  leading: boolean;
}

export class JobRunner {
  private readonly jobs = new Map<string, Scheduled>();
  private started = false;
  private closed = false;
  readonly owner: string;

  constructor(private readonly options: JobRunnerOptions) {
    this.owner = options.owner ?? randomUUID();
  }

  register(job: Job): void {
    if (this.jobs.has(job.name)) throw new Error(`job ${job.name} registered twice`);
    const scheduled: Scheduled = { job, timer: undefined, running: undefined, leading: false };
    this.jobs.set(job.name, scheduled);
    if (this.started) this.schedule(scheduled);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const scheduled of this.jobs.values()) this.schedule(scheduled);
  }

  /** Whether this process holds the lease of a cluster job (process jobs: always). */
  isLeading(name: string): boolean {
    const scheduled = this.jobs.get(name);
    return scheduled ? scheduled.job.scope === 'process' || scheduled.leading : false;
  }

  /** Runs one round of a job now (tests drive rounds with this instead of waiting for timers). */
  runOnce(name: string): Promise<void> {
    const scheduled = this.jobs.get(name);
    if (!scheduled) throw new Error(`no job ${name}`);
    return this.round(scheduled);
  }

  /** Stops scheduling, waits for the rounds under way, runs each job's last round where it leads, gives up leases. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const scheduled of this.jobs.values()) clearTimeout(scheduled.timer);
    await Promise.all([...this.jobs.values()].map((s) => s.running));
    for (const scheduled of this.jobs.values()) {
      if (scheduled.job.scope === 'cluster' && scheduled.leading) {
        // The last round only while the lease is still ours (it may have lapsed since the previous round).
        const { job } = scheduled;
        const still = await this.options.leases
          .acquire(this.leaseName(job), this.owner, leaseTtl(job))
          .catch(() => false);
        if (still) await this.guard(job, () => job.run({ leading: true, stillLeading: () => true }));
        await this.options.leases.release(this.leaseName(job), this.owner).catch(() => undefined);
        scheduled.leading = false;
      }
    }
  }

  private schedule(scheduled: Scheduled): void {
    if (this.closed) return;
    scheduled.timer = setTimeout(() => {
      void this.round(scheduled).finally(() => this.schedule(scheduled));
    }, scheduled.job.everyMs);
    scheduled.timer.unref();
  }

  private round(scheduled: Scheduled): Promise<void> {
    // A round still running (slow database) is not doubled: the caller waits for it instead.
    if (scheduled.running) return scheduled.running;
    const { job } = scheduled;
    const work = async () => {
      if (job.scope === 'cluster') {
        scheduled.leading = await this.options.leases
          .acquire(this.leaseName(job), this.owner, leaseTtl(job))
          .catch((err: unknown) => {
            this.options.onError?.(job.name, err);
            return false;
          });
        if (!scheduled.leading && !job.runWhenFollowing) return;
      }
      const leading = job.scope === 'process' || scheduled.leading;
      const keep = job.scope === 'cluster' && scheduled.leading ? this.keepLease(scheduled) : undefined;
      try {
        await this.guard(job, () => job.run({ leading, stillLeading: () => leading && (keep?.held() ?? true) }));
      } finally {
        keep?.stop();
      }
    };
    scheduled.running = work().finally(() => {
      scheduled.running = undefined;
    });
    return scheduled.running;
  }

  /** Renews a cluster job's lease every third of its ttl while a round runs; `held` turns false when one fails. */
  private keepLease(scheduled: Scheduled): { held(): boolean; stop(): void } {
    const { job } = scheduled;
    let held = true;
    const timer = setInterval(
      () => {
        void this.options.leases
          .acquire(this.leaseName(job), this.owner, leaseTtl(job))
          .catch(() => false)
          .then((ok) => {
            if (ok) return;
            held = false;
            scheduled.leading = false;
          });
      },
      Math.floor(leaseTtl(job) / 3),
    );
    timer.unref();
    return { held: () => held, stop: () => clearInterval(timer) };
  }

  private async guard(job: Job, work: () => Promise<void> | void): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.options.onError?.(job.name, err);
    }
  }

  private leaseName(job: Job): string {
    return `job:${job.name}`;
  }
}

/** A lease outlives a few missed rounds (a busy event loop) but lets another process take over within seconds. */
export function leaseTtl(job: Job): number {
  return Math.max(5_000, job.everyMs * 3);
}
