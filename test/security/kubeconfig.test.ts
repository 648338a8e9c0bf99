/**
 * The functions' kubeconfig: one fetched from Secrets Manager or SSM (the Lambda path) may not run
 * a credential plugin or skip TLS; a malformed one is reported without quoting it; and the log
 * redaction finds credentials inside free text, not only in fields named after them.
 */
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../../lib/kube/client-node.js';
import { redact, redactText } from '../../lib/log/redact.js';

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64');

function kubeconfig(cluster: Record<string, unknown>, user: Record<string, unknown>): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'karmada', cluster }],
    users: [{ name: 'functions', user }],
    contexts: [{ name: 'karmada', context: { cluster: 'karmada', user: 'functions' } }],
    'current-context': 'karmada',
  });
}

const safeCluster = { server: 'https://karmada.example:5443', 'certificate-authority-data': CA };

describe('In Lambda, unsafe kubeconfigs are refused', () => {
  const fetched = (text: string) => () => loadKubeConfig({ text, fetched: true });

  it('accepts https with a CA and a token', () => {
    expect(fetched(kubeconfig(safeCluster, { token: 't' }))).not.toThrow();
  });

  it('refuses exec and auth-provider plugins, insecure-skip-tls-verify and plain http', () => {
    const exec = { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'aws', args: ['eks'] } };
    expect(fetched(kubeconfig(safeCluster, exec))).toThrow(/exec credential plugin/);
    const provider = { 'auth-provider': { name: 'oidc', config: { 'id-token': 'x' } } };
    expect(fetched(kubeconfig(safeCluster, provider))).toThrow(/auth-provider plugin/);
    const insecure = { server: 'https://karmada.example:5443', 'insecure-skip-tls-verify': true };
    expect(fetched(kubeconfig(insecure, { token: 't' }))).toThrow(/insecure-skip-tls-verify/);
    const plain = { server: 'http://karmada.example:8080', 'insecure-skip-tls-verify': true };
    expect(fetched(kubeconfig(plain, { token: 't' }))).toThrow(/plain http/);
  });

  it('a local file (npm start, the API stand-in) may still use plain http', () => {
    const plain = { server: 'http://127.0.0.1:8080', 'insecure-skip-tls-verify': true };
    expect(() => loadKubeConfig({ text: kubeconfig(plain, { token: 't' }) })).not.toThrow();
  });
});

describe('Kubeconfig errors and log redaction', () => {
  const token = 'eyJhbGciOiJSUzI1NiJ9.functionsTokenNeverLogged.sig';

  it('a malformed kubeconfig is reported by its first line, without the credential it quotes', () => {
    let message = '';
    try {
      loadKubeConfig({ text: `users:\n- name: x\n  user:\n    token: ${token}\n   bad: [\n`, fetched: true });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^invalid kubeconfig from the given text: /);
    expect(message).not.toContain('functionsTokenNeverLogged');
    expect(message.split('\n')).toHaveLength(1);
  });

  it('redaction catches credentials inside messages, not only Bearer strings', () => {
    const key = Buffer.from('private key material, long enough to look like real key data 0123').toString(
      'base64',
    );
    const texts = [
      `token: ${token}`,
      `{"client-key-data":"${key}"}`,
      `Authorization: Basic dXNlcjpwYXNzd29yZA==`,
      `failed with header authorization=Bearer ${token}`,
      `password=hunter2-never-logged`,
      `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAneverLogged\n-----END RSA PRIVATE KEY-----`,
    ];
    for (const t of texts) {
      const out = redactText(t);
      expect(out, t).toContain('[redacted]');
      for (const secret of [token, key, 'dXNlcjpwYXNzd29yZA==', 'hunter2-never-logged', 'neverLogged'])
        expect(out, t).not.toContain(secret);
    }
    const logged = JSON.stringify(
      redact({ error: new Error(`bad kubeconfig: token: ${token}`), note: texts[1] }),
    );
    expect(logged).not.toContain('functionsTokenNeverLogged');
    expect(logged).not.toContain(key);
  });

  it('leaves ordinary text alone: ARNs, names, hex hashes', () => {
    const arn =
      'arn:aws:elasticloadbalancing:eu-west-1:123456789012:loadbalancer/app/k8s-default-web-0a1b2c3d4e/50dc6c495c0c9188';
    const hash = 'a'.repeat(32) + '0123456789abcdef0123456789abcdef';
    for (const t of [arn, `fingerprint ${hash}`, 'the TLS Secret web-tls changed', 'reconciled default/web'])
      expect(redactText(t)).toBe(t);
  });
});
