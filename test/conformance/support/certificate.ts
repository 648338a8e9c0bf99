/**
 * A self-signed certificate and its key, made with openssl for the run (no private key is kept in
 * the repository), for ACM's ImportCertificate: imported certificates are what the scenarios'
 * HTTPS listeners discover by host, on both targets alike.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Pem {
  certificate: string;
  privateKey: string;
}

const made = new Map<string, Pem>();

/** A certificate for `names` (the first is its CN), valid from an hour ago for ten years. */
export function selfSigned(names: readonly string[]): Pem {
  const key = names.join(',');
  const known = made.get(key);
  if (known) return known;
  const dir = mkdtempSync(join(tmpdir(), 'conformance-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '3650',
        '-subj',
        `/CN=${names[0]}`,
        '-addext',
        `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
      ],
      { stdio: 'ignore' },
    );
    const pem = {
      certificate: readFileSync(join(dir, 'cert.pem'), 'utf8'),
      privateKey: readFileSync(join(dir, 'key.pem'), 'utf8'),
    };
    made.set(key, pem);
    return pem;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
