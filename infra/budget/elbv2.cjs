/**
 * The deployment's share of the account's ELBv2 budget, turned into what serverless.yml needs.
 * Every Lambda container has its own rate limiter, so the deployment's real rate is
 * reserved concurrency × per-container rate: given the share (calls per second, the
 * `elbv2CallsPerSecond` parameter), the sqs function gets as many containers as keep each at
 * 1 call/s or more (a reconcile's handful of calls then fits its timeout), at most 10, and each
 * container gets the share divided by that. Used by serverless.yml as
 * `${file(./infra/budget/elbv2.cjs):budget}`; `deploymentBudget` is the formula (unit-tested).
 */
'use strict';

const MIN_PER_CONTAINER = 1;
const MAX_CONTAINERS = 10;

function deploymentBudget(callsPerSecond) {
  const share = Number(callsPerSecond);
  if (!Number.isFinite(share) || share <= 0 || share > 1000) {
    throw new Error(
      `elbv2CallsPerSecond must be a number of calls per second in (0, 1000], got "${callsPerSecond}"`,
    );
  }
  const reservedConcurrency = Math.max(1, Math.min(MAX_CONTAINERS, Math.floor(share / MIN_PER_CONTAINER)));
  const perContainer = Math.floor((share / reservedConcurrency) * 1000) / 1000;
  return { callsPerSecond: share, reservedConcurrency, perContainerCallsPerSecond: perContainer };
}

/** `rate(10 minutes)` → 600: the resync's period, which deals its deep checks out over runs. */
function ratePeriodSeconds(expression) {
  const m = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(String(expression).trim());
  if (!m) throw new Error(`resyncSchedule must be rate(N minutes|hours|days), got "${expression}"`);
  const unit = { minute: 60, hour: 3600, day: 86400 }[m[2].replace(/s$/, '')];
  return Number(m[1]) * unit;
}

async function budget({ resolveVariable }) {
  return {
    ...deploymentBudget(await resolveVariable('param:elbv2CallsPerSecond')),
    resyncPeriodSeconds: ratePeriodSeconds(await resolveVariable('param:resyncSchedule')),
  };
}

module.exports = { budget, deploymentBudget, ratePeriodSeconds };
