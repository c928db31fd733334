import type { RequestHandler } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { isoNow } from '../../commands/time-text.js';
import { windowOf } from '../../domain/billing.js';
import { DomainError } from '../../domain/errors.js';
import { isUnlimited, limitsOf, type PlanCode } from '../../domain/plan.js';
import type { ReadStore } from '../../projections/ports.js';
import type { Principal } from '../../api/principal.js';
import type { RequestCounter } from '../../read-api/request-counter.js';

/** `plan`: each organization's plan value; a number: that many for every organization; `off`: no limit. */
export type RateLimitSetting = 'plan' | 'off' | number;

/** Answered requests per organization and window; 429s, 5xx and preflights are not billed. */
export class RequestMeter implements RequestCounter {
  private readonly counts = new Map<string, number>();

  add(organization: string, window: string): void {
    const id = `${organization}:${window}`;
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
  }

  count(organization: string, window: string): number {
    return this.counts.get(`${organization}:${window}`) ?? 0;
  }
}

const rateLimited = (retryAfter: number, limit: number): DomainError =>
  new DomainError('rate_limited', `More than ${limit} requests per minute for this organization; retry after ${retryAfter} s.`, {
    limit,
    retry_after: retryAfter,
  });

/**
 * The per-organization requests-per-minute limit of the management interface (after
 * authentication, which names the organization): a fixed one-minute window per organization,
 * counted atomically in this process by rate-limiter-flexible, shared by all of its clients.
 */
export function managementRateLimit(store: ReadStore, setting: RateLimitSetting, meter: RequestMeter): RequestHandler {
  const limiters = new Map<number, RateLimiterMemory>();
  const limiterFor = (points: number): RateLimiterMemory => {
    let limiter = limiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterMemory({ points, duration: 60, keyPrefix: `rpm${points}` });
      limiters.set(points, limiter);
    }
    return limiter;
  };
  const limitOf = async (organization: string): Promise<number | null> => {
    if (setting === 'off') return null;
    if (typeof setting === 'number') return setting;
    const org = await store.collection('organizations').get(organization);
    const perMinute = limitsOf((org?.plan as PlanCode | undefined) ?? 'free', org?.unlimited === true).requests_per_minute;
    return isUnlimited(perMinute) ? null : perMinute;
  };

  return async (req, res, next) => {
    const { organization } = res.locals.principal as Principal;
    res.on('finish', () => {
      if (res.statusCode !== 429 && res.statusCode < 500 && req.method !== 'OPTIONS') meter.add(organization, windowOf(isoNow()));
    });
    const limit = await limitOf(organization);
    if (limit === null) return next();
    try {
      await limiterFor(limit).consume(organization);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const retryAfter = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      res.set('Retry-After', String(retryAfter));
      return next(rateLimited(retryAfter, limit));
    }
    return next();
  };
}
