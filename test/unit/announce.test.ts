import { describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../lib/log/logger.js';
import { announceBestEffort, reportWarnings } from '../../lib/provider/announce.js';

describe('announceBestEffort', () => {
  it('records the Event, with its type only when it has one', async () => {
    const told: unknown[][] = [];
    const ctx = {
      logger: new MemoryLogger(),
      announce: (...args: unknown[]) => {
        told.push(args);
        return Promise.resolve();
      },
    };
    await announceBestEffort(ctx, 'a drain', { reason: 'ClusterDrained', message: 'm1', type: 'Normal' });
    await announceBestEffort(ctx, 'a warning Event', { reason: 'Ignored', message: 'm2' });
    expect(told).toEqual([
      ['ClusterDrained', 'm1', 'Normal'],
      ['Ignored', 'm2'],
    ]);
    expect(ctx.logger.lines).toEqual([]);
  });

  it('a failure to record it is a log line naming what was not told, not an error', async () => {
    const logger = new MemoryLogger();
    const ctx = { logger, announce: () => Promise.reject(new Error('events forbidden')) };
    await announceBestEffort(ctx, 'a replacement', { reason: 'ReplacingLoadBalancer', message: 'm' });
    expect(logger.lines.map((l) => [l.level, l.message, l.fields])).toEqual([
      [
        'WARN',
        'could not announce a replacement',
        { reason: 'ReplacingLoadBalancer', error: 'events forbidden' },
      ],
    ]);
    // Without an announcer, nothing to tell.
    await announceBestEffort({ logger }, 'a drain', { reason: 'r', message: 'm' });
    expect(logger.lines).toHaveLength(1);
  });

  it('reportWarnings: each warning a log line and an Event, one failed Event not stopping the next', async () => {
    const logger = new MemoryLogger();
    const told: string[] = [];
    const ctx = {
      logger,
      announce: (reason: string) => {
        if (reason === 'First') return Promise.reject(new Error('events forbidden'));
        told.push(reason);
        return Promise.resolve();
      },
    };
    await reportWarnings(ctx, [
      { reason: 'First', message: 'one' },
      { reason: 'Second', message: 'two' },
    ]);
    expect(told).toEqual(['Second']);
    expect(logger.lines.map((l) => [l.message, l.fields])).toEqual([
      ['one', { reason: 'First' }],
      ['could not announce a warning Event', { reason: 'First', error: 'events forbidden' }],
      ['two', { reason: 'Second' }],
    ]);
  });
});
