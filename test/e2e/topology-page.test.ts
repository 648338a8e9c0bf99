/**
 * The topology page of `npm start`, in a real headless browser (Debian's Chromium, driven by
 * playwright-core): it draws the upstream scenario's load balancers, and redraws by itself when
 * kubectl changes an MCI's rules and when a cluster's traffic is blocked.
 *
 * Chromium comes from `apt-get install chromium` (.ci/run installs it). Without it (or kubectl, or
 * playwright-core) this test fails in CI and, elsewhere, says loudly that it did not run.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort, npmStart, type NpmStart } from './npm-start.support.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const run = promisify(execFile);
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
const hasChromium = existsSync(CHROMIUM);
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
/** A node_modules older than package.json (npm ci not run since playwright-core was added). */
const hasPlaywright = (() => {
  try {
    createRequire(import.meta.url).resolve('playwright-core');
    return true;
  } catch {
    return false;
  }
})();
const runs = (hasChromium && hasKubectl && hasPlaywright) || inCi;
if (!runs) {
  console.warn(
    `topology page browser test NOT RUN: ${[
      hasChromium ? '' : `no Chromium at ${CHROMIUM} (apt-get install chromium)`,
      hasKubectl ? '' : 'no kubectl',
      hasPlaywright ? '' : 'playwright-core is not installed (npm ci)',
    ]
      .filter(Boolean)
      .join('; ')}`,
  );
}

/** Karmada's remedy for a failing cluster: its traffic is blocked (status.remedyActions). */
async function blockTraffic(app: NpmStart, cluster: string): Promise<void> {
  await app.kubectl(
    'patch',
    'cluster',
    cluster,
    '--subresource=status',
    '--type',
    'merge',
    '-p',
    JSON.stringify({ status: { remedyActions: ['TrafficControl'] } }),
  );
}

describe.skipIf(!runs)('npm start: the topology page in headless Chromium', () => {
  it('draws the load balancers and follows kubectl changes live', async () => {
    if (!hasChromium)
      throw new Error(
        `Chromium is not installed at ${CHROMIUM}: .ci/run installs it (apt-get install chromium)`,
      );
    if (!hasKubectl)
      throw new Error('kubectl is not installed: .ci/run installs it (apt-get install kubernetes-client)');
    const { chromium } = await import('playwright-core');
    const state = mkdtempSync(join(tmpdir(), 'topology-page-'));
    const app = npmStart(state, ['--fresh']);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox'],
    });
    try {
      const url = (await app.wait(/topology:\s+(\S+)/))[1]!;
      const kubectl = app.kubectl;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

      const page = await browser.newPage();
      await page.goto(url);
      const mci = page.locator('[data-object="mci default/minimal-ingress"]');
      await mci.locator('[data-rule="80:*:Prefix:/testpath"]').waitFor({ timeout: 30_000 });
      await expect.poll(() => mci.locator('[data-load-balancer]').count()).toBe(1);
      expect(await mci.locator('[data-listener="HTTP:80"]').innerText()).toContain(
        'default: fixed response 404',
      );
      // member1 has two ready endpoints, member2 one: two thirds and one third of the traffic.
      expect(await mci.locator('[data-cluster="member1"]').getAttribute('data-weight')).toBe('66.7');
      expect(await mci.locator('[data-cluster="member2"]').getAttribute('data-weight')).toBe('33.3');
      expect(await mci.locator('[data-cluster="member2"] [data-target="10.2.0.21:8080"]').count()).toBe(1);
      await page.locator('[data-object="mcs default/serve"] [data-listener="TCP:80"]').waitFor();

      // kubectl changes the rule: the page redraws by itself (no reload).
      const version = await page.locator('body').getAttribute('data-version');
      await kubectl(
        'patch',
        'mci',
        'minimal-ingress',
        '--type',
        'merge',
        '-p',
        JSON.stringify({
          spec: {
            rules: [
              {
                host: 'shop.example.com',
                http: {
                  paths: [
                    {
                      path: '/changed',
                      pathType: 'Prefix',
                      backend: { service: { name: 'serve', port: { number: 80 } } },
                    },
                  ],
                },
              },
            ],
          },
        }),
      );
      const changed = mci.locator('[data-rule="80:shop.example.com:Prefix:/changed"]');
      await changed.waitFor({ timeout: 30_000 });
      expect(await changed.innerText()).toContain('host shop.example.com');
      expect(await mci.locator('[data-rule="80:*:Prefix:/testpath"]').count()).toBe(0);
      expect(await page.locator('body').getAttribute('data-version')).not.toBe(version);

      // Karmada blocks member2's traffic: the functions drop its targets, the page shows it blocked.
      await blockTraffic(app, 'member2');
      await mci.locator('[data-blocked-cluster="member2"]').waitFor({ timeout: 30_000 });
      await expect.poll(() => mci.locator('[data-cluster="member2"]').count(), { timeout: 10_000 }).toBe(0);
      expect(await mci.locator('[data-cluster="member1"]').getAttribute('data-weight')).toBe('100');
    } finally {
      await browser.close();
      await app.stop();
    }
  }, 180_000);

  it('--provider aws in two Regions: each Region its load balancer, the accelerator in front with each dial, a drained Region at 0', async () => {
    const { chromium } = await import('playwright-core');
    const state = mkdtempSync(join(tmpdir(), 'topology-page-aws-'));
    const app = npmStart(state, ['--fresh', '--provider', 'aws', '--elbv2-port', String(await freePort())]);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox'],
    });
    try {
      const url = (await app.wait(/topology:\s+(\S+)/))[1]!;
      // Served in both Regions, behind its accelerator: its status is the accelerator's.
      const hostname = (
        await app.wait(
          /mci default\/minimal-ingress: status\.loadBalancer = (\S+\.awsglobalaccelerator\.com), /,
        )
      )[1]!;
      // What `chromium --headless --screenshot` captures, which lets no fetch finish: the page
      // comes with its first picture drawn, not "loading…".
      const { stdout: dom } = await run(
        CHROMIUM,
        ['--headless', '--no-sandbox', '--disable-gpu', '--virtual-time-budget=10000', '--dump-dom', url],
        { timeout: 60_000 },
      );
      expect(dom).not.toContain('loading…');
      expect(dom).toContain('data-object="mci default/minimal-ingress"');
      expect(dom).toContain(hostname);

      const page = await browser.newPage();
      await page.goto(url);
      const mci = page.locator('[data-object="mci default/minimal-ingress"]');
      const door = mci.locator('[data-front-door]');
      await expect.poll(() => door.innerText(), { timeout: 30_000 }).toContain(hostname);
      expect(await door.getAttribute('class')).not.toContain('pending');
      expect(
        await door
          .locator('[data-dial-region]')
          .evaluateAll((els) =>
            els.map((e) => [e.getAttribute('data-dial-region'), e.getAttribute('data-dial')]),
          ),
      ).toStrictEqual([
        ['eu-west-1', '100'],
        ['us-east-1', '100'],
      ]);
      // Each Region its own ALB (its own DNS name) with only its own cluster's targets.
      const east = mci.locator('[data-region="us-east-1"]');
      const west = mci.locator('[data-region="eu-west-1"]');
      expect(await east.locator('[data-load-balancer]').innerText()).toContain(
        '.us-east-1.elb.amazonaws.com',
      );
      expect(await west.locator('[data-load-balancer]').innerText()).toContain(
        '.eu-west-1.elb.amazonaws.com',
      );
      expect(
        await east
          .locator('[data-target]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-target'))),
      ).toStrictEqual(['10.1.0.11:8080', '10.1.0.12:8080']);
      expect(
        await west
          .locator('[data-cluster]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-cluster'))),
      ).toStrictEqual(['member2']);
      // The MCS: an NLB per Region behind an accelerator of its own.
      const mcs = page.locator('[data-object="mcs default/serve"]');
      await mcs.locator('[data-region="eu-west-1"] [data-listener="TCP:80"]').waitFor();
      expect(await mcs.locator('[data-front-door] [data-dial-region]').count()).toBe(2);

      // Karmada blocks eu-west-1's only cluster: its dial goes to 0 and its targets drain.
      await blockTraffic(app, 'member2');
      await door.locator('[data-dial-region="eu-west-1"][data-dial="0"]').waitFor({ timeout: 30_000 });
      await expect.poll(() => west.locator('[data-cluster]').count(), { timeout: 10_000 }).toBe(0);
      expect(await door.locator('[data-dial-region="us-east-1"]').getAttribute('data-dial')).toBe('100');
      expect(await east.locator('[data-target]').count()).toBe(2);
    } finally {
      await browser.close();
      await app.stop();
    }
  }, 180_000);
});
