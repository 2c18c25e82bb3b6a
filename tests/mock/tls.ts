/**
 * A throwaway self-signed certificate for 127.0.0.1/localhost, made with the local openssl, so the
 * mock can speak HTTP/2 over TLS. Why: browsers open at most 6 HTTP/1.1 connections per host,
 * which would cap a browser run at 6 requests in flight; real provider APIs use HTTP/2, where
 * one connection carries many requests. `spki` is what Chromium's
 * --ignore-certificate-errors-spki-list flag takes to trust this one certificate.
 */
import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SelfSigned {
  key: string;
  cert: string;
  /** base64 SHA-256 of the certificate's SubjectPublicKeyInfo. */
  spki: string;
}

export function selfSignedCert(): SelfSigned {
  const dir = mkdtempSync(join(tmpdir(), 'semece-mock-tls-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ], { stdio: 'ignore' });
    const key = readFileSync(join(dir, 'key.pem'), 'utf8');
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const der = createPublicKey(cert).export({ type: 'spki', format: 'der' });
    return { key, cert, spki: createHash('sha256').update(der).digest('base64') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
