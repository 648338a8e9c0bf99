/**
 * Every sample event in events/ is accepted by the function it is meant for, and one of each kind
 * runs for real through `npm run invoke` (osls invoke local, the Lambda bundle, the stand-in).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { notificationsFromHttp } from '../../lib/notification/http.js';
import { normalizeMany, parseSqsBody } from '../../lib/notification/parse.js';

const dir = join(import.meta.dirname, '../../events');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

function notificationsOf(file: string) {
  const event = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  if (file.startsWith('sqs-')) return event.Records.flatMap((r: { body: string }) => parseSqsBody(r.body));
  if (file.startsWith('http-')) return notificationsFromHttp(event.headers, event.body);
  return normalizeMany(event);
}

describe('sample events', () => {
  it('cover each input shape and change type', () => {
    const all = files.flatMap(notificationsOf);
    expect(new Set(all.map((n) => n.change))).toEqual(new Set(['added', 'modified', 'deleted', 'resync']));
    expect(files.some((f) => f.startsWith('sqs-'))).toBe(true);
    expect(files.some((f) => f.startsWith('cloudevent-resource-'))).toBe(true);
    expect(files.some((f) => f.startsWith('cloudevent-ref-'))).toBe(true);
  });

  it.each(files)('%s is a valid notification for its function', (file) => {
    expect(notificationsOf(file).length).toBeGreaterThan(0);
  });
});

const run = promisify(execFile);

describe('npm run invoke', () => {
  it.each([
    ['native-added-mci.json', /"outcome": "created"/],
    ['sqs-native-and-cloudevent.json', /"batchItemFailures": \[\]/],
    ['http-post-batch.json', /"statusCode": 200/],
  ])(
    'runs %s through osls invoke local',
    async (file, expected) => {
      const { stdout } = await run('npx', ['tsx', 'scripts/invoke.ts', join('events', file)], {
        cwd: join(import.meta.dirname, '../..'),
        env: { ...process.env, KUBECONFIG: '', LOG_LEVEL: 'WARN' },
        timeout: 170_000,
      });
      expect(stdout).toMatch(expected);
    },
    180_000,
  );
});
