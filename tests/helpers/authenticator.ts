/**
 * A software passkey authenticator for API tests (the browser tests use Chromium's virtual
 * one): it makes a P-256 key per credential and answers WebAuthn's create() and get() options
 * the way a browser does, with "none" attestation, user presence and user verification. It
 * stands in for a device outside our system; the server checks its answers with
 * @simplewebauthn/server like any other.
 */
import crypto from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (bytes: Uint8Array | Buffer) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest();

interface Credential {
  id: Buffer;
  key: crypto.KeyObject;
  rpId: string;
  userHandle: string;
  count: number;
}

// Flags: user present, user verified, (for create) attested credential data.
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  constructor(readonly origin: string) {}

  /** navigator.credentials.create(): a new credential, as @simplewebauthn/browser's startRegistration answers. */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const credential: Credential = { id: crypto.randomBytes(16), key: privateKey, rpId, userHandle: options.user.id, count: 0 };
    this.credentials.push(credential);
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | UV | AT]), Buffer.alloc(4), Buffer.alloc(16), idLength, credential.id, Buffer.from(isoCBOR.encode(cose))]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', new Uint8Array(authData)]]) as never);
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: this.origin, crossOrigin: false });
    return {
      id: b64(credential.id),
      rawId: b64(credential.id),
      type: 'public-key',
      response: { clientDataJSON: b64(Buffer.from(clientDataJSON)), attestationObject: b64(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): an assertion by the allowed (or, with none named, the first) credential. */
  get(options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] }, userVerified = true) {
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const credential = this.credentials.find((c) => allowed.length === 0 || allowed.includes(b64(c.id)));
    if (!credential) throw new Error('no credential for these options');
    credential.count += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(credential.count);
    const authData = Buffer.concat([sha256(options.rpId ?? credential.rpId), Buffer.from([UP | (userVerified ? UV : 0)]), count]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: this.origin, crossOrigin: false }));
    const signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.key);
    return {
      id: b64(credential.id),
      rawId: b64(credential.id),
      type: 'public-key',
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(signature), userHandle: credential.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
