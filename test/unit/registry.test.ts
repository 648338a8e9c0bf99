import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../lib/log/logger.js';
import type { ProviderDependencies, MultiClusterProvider } from '../../lib/provider/contract.js';
import {
  initMultiClusterProvider,
  registerMultiClusterProvider,
  registeredProviderNames,
  resetRegistry,
} from '../../lib/provider/registry.js';
import type { KubeClient } from '../../lib/kube/client.js';

// The registry only hands the client to factories; it never calls it.
const deps: ProviderDependencies = { kube: {} as KubeClient, logger: silentLogger };

const stub = (name: string): MultiClusterProvider => ({
  providerName: () => name,
  loadBalancer: () => undefined,
  mcsLoadBalancer: () => undefined,
  inventory: () => undefined,
  targetGroupInventory: () => undefined,
  fingerprints: () => undefined,
});

describe('Function: registerMultiClusterProvider', () => {
  afterEach(() => resetRegistry());

  it('throws on a duplicate name', () => {
    registerMultiClusterProvider('a', () => stub('a'));
    expect(() => registerMultiClusterProvider('a', () => stub('a'))).toThrow(
      'multicluster provider "a" was registered twice',
    );
  });

  it('lists registered names sorted', () => {
    registerMultiClusterProvider('zeta', () => stub('zeta'));
    registerMultiClusterProvider('alpha', () => stub('alpha'));
    expect(registeredProviderNames()).toEqual(['alpha', 'zeta']);
  });
});

describe('Function: initMultiClusterProvider', () => {
  afterEach(() => resetRegistry());

  it('returns undefined for an empty name', async () => {
    expect(await initMultiClusterProvider('', undefined, deps)).toBeUndefined();
  });

  it('names the unknown provider and the registered ones', async () => {
    registerMultiClusterProvider('fake', () => stub('fake'));
    registerMultiClusterProvider('aws', () => stub('aws'));
    await expect(initMultiClusterProvider('gcp', undefined, deps)).rejects.toThrow(
      'unknown multicluster provider "gcp" (registered: aws, fake)',
    );
  });

  it('says when nothing is registered', async () => {
    await expect(initMultiClusterProvider('x', undefined, deps)).rejects.toThrow(
      'unknown multicluster provider "x" (registered: none)',
    );
  });

  it('names the path of an unreadable config file', async () => {
    registerMultiClusterProvider('fake', () => stub('fake'));
    await expect(initMultiClusterProvider('fake', '/nonexistent/cloud.yaml', deps)).rejects.toThrow(
      /couldn't open multicluster provider configuration "\/nonexistent\/cloud\.yaml"/,
    );
  });

  it('wraps a factory failure with the provider name and cause', async () => {
    registerMultiClusterProvider('broken', () => {
      throw new Error('region is required');
    });
    const err = await initMultiClusterProvider('broken', undefined, deps).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('could not init multicluster provider "broken": region is required');
    expect((err as Error).cause).toBeInstanceOf(Error);
  });

  it('passes the config file contents and the dependencies to the factory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-'));
    const path = join(dir, 'cloud.yaml');
    await writeFile(path, 'region: eu-west-1\n');
    let seen: { config?: string; deps?: ProviderDependencies } = {};
    registerMultiClusterProvider('rec', (config, d) => {
      seen = { config, deps: d };
      return stub('rec');
    });
    const provider = await initMultiClusterProvider('rec', path, deps);
    expect(provider?.providerName()).toBe('rec');
    expect(seen.config).toBe('region: eu-west-1\n');
    expect(seen.deps).toBe(deps);
  });

  it('gives the factory undefined when no config path is given', async () => {
    let seen: string | undefined = 'unset';
    registerMultiClusterProvider('rec', (config) => {
      seen = config;
      return stub('rec');
    });
    await initMultiClusterProvider('rec', undefined, deps);
    expect(seen).toBeUndefined();
  });
});
