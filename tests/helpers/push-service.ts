import https from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A Web Push service on loopback for tests (RFC 8030): HTTPS with a self-signed certificate for
 * 127.0.0.1, that checks each request's VAPID JWT signature (RFC 8292) and decrypts its aes128gcm
 * payload (RFC 8291) with the private key of the device the subscription belongs to, as a browser
 * would. Endpoints under /gone/ answer 410 (the subscription no longer exists).
 */
export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** the verified JWT claims */
  claims: { aud: string; exp: number; sub: string };
  /** the VAPID public key the request named (k=) */
  vapidKey: string;
  payload: Record<string, any>;
  plaintextBytes: number;
  bodyBytes: number;
  receivedAt: number;
}

export interface Device {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: ECDH;
  authSecret: Buffer;
}

export interface PushService {
  origin: string;
  ca: string;
  received: ReceivedPush[];
  errors: string[];
  /** a device (browser) with its own key pair, subscribed at this service */
  device(name: string, opts?: { gone?: boolean }): Device;
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

function makeCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-push-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** RFC 8292: verifies `vapid t=<jwt>, k=<key>` and returns the claims. */
function verifyVapid(header: string | undefined): { claims: ReceivedPush['claims']; key: string } {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`Authorization is not "vapid t=…, k=…": ${header}`);
  const [jwt, k] = [m[1], m[2]];
  const [h, p, sig] = jwt.split('.');
  const head = JSON.parse(Buffer.from(h, 'base64url').toString());
  if (head.alg !== 'ES256' || head.typ !== 'JWT') throw new Error(`JWT header ${JSON.stringify(head)}`);
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'));
  if (!ok) throw new Error('VAPID JWT signature does not verify');
  return { claims: JSON.parse(Buffer.from(p, 'base64url').toString()), key: k };
}

/** RFC 8291 §3–4 and RFC 8188: decrypts one aes128gcm record with the device's private key. */
export function decryptAes128gcm(body: Buffer, device: { ecdh: ECDH; authSecret: Buffer }): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (idlen !== 65) throw new Error(`keyid is ${idlen} bytes, not the sender's 65-byte public key`);
  if (ciphertext.length > rs) throw new Error('more than one record');
  const uaPublic = device.ecdh.getPublicKey();
  const ecdhSecret = device.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, device.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // the last record ends with the delimiter 0x02 followed by zero padding
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('last record lacks the 0x02 delimiter');
  return padded.subarray(0, end);
}

export async function startPushService(): Promise<PushService> {
  const { key, cert } = makeCert();
  const devices = new Map<string, Device>();
  const received: ReceivedPush[] = [];
  const errors: string[] = [];
  const waiters: Array<() => void> = [];
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      try {
        if (path.startsWith('/gone/')) {
          res.writeHead(410).end('gone');
          return;
        }
        const device = devices.get(path);
        if (!device) throw new Error(`no device at ${path}`);
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`Content-Encoding ${req.headers['content-encoding']}`);
        const { claims, key: k } = verifyVapid(req.headers.authorization);
        const body = Buffer.concat(chunks);
        const plain = decryptAes128gcm(body, device);
        received.push({
          path,
          headers: req.headers,
          claims,
          vapidKey: k,
          payload: JSON.parse(plain.toString('utf8')),
          plaintextBytes: plain.length,
          bodyBytes: body.length,
          receivedAt: performance.now(),
        });
        res.writeHead(201).end();
      } catch (err) {
        errors.push((err as Error).message);
        res.writeHead(400).end((err as Error).message);
      }
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    ca: cert,
    received,
    errors,
    device(name, opts = {}) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const path = `/${opts.gone ? 'gone' : 'push'}/${name}`;
      const d: Device = {
        endpoint: `${origin}${path}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
        ecdh,
        authSecret,
      };
      devices.set(path, d);
      return d;
    },
    async waitFor(n, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`push service: ${received.length} of ${n} pushes after ${timeoutMs} ms; errors: ${errors.join('; ')}`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, 100);
          waiters.push(() => {
            clearTimeout(t);
            r();
          });
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
