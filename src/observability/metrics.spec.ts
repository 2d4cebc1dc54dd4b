import { describe, expect, it } from 'vitest';
import { exposeSystemStatus, ServiceMetrics } from './metrics.js';

describe('ServiceMetrics', () => {
  it('reports the system as not ok, and nothing else of it, when the status cannot be read', async () => {
    const metrics = new ServiceMetrics();
    exposeSystemStatus(metrics, () => Promise.reject(new Error('connect ECONNREFUSED')));
    const { body } = await metrics.exposition();
    expect(body).toContain('\ncasescreen_system_ok 0\n');
    expect(body).not.toMatch(/^casescreen_subscription_lag_events\{/m);
  });

  it("sums a peer's counters into its own, keeping what only this process has", async () => {
    const metrics = new ServiceMetrics({ processMetrics: true });
    const thread = new ServiceMetrics();
    metrics.rateLimited.inc(2);
    thread.rateLimited.inc(3);
    metrics.addPeer(() => thread.registry.getMetricsAsJSON());
    const { body } = await metrics.exposition();
    expect(body).toContain('\ncasescreen_rate_limited_requests_total 5\n');
    expect(body).toMatch(/^casescreen_process_start_time_seconds \d+/m);
  });
});
