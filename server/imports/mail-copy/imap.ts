/**
 * The two IMAP connections of a copy (imapflow): the old server, as the customer's account there,
 * and our Dovecot, as the mailbox through Dovecot's master user ("address*master"), so the copy
 * needs no mailbox password and works from wherever the panel runs. A refused login, an untrusted
 * certificate or a server without TLS will not get better by retrying, and the customer can mend
 * them; every other failure to connect (closed, silent, reset, not IMAP) answers one and the same
 * message with no detail, so that a copy does not tell what listens where (the detail goes to the
 * server's log only).
 */
import { ImapFlow } from 'imapflow';

export interface Endpoint {
  /** The address connected to (for the old server, the one source-address.ts checked). */
  host: string;
  /** The name its certificate is checked against (and sent as SNI), when `host` is its address. */
  servername?: string;
  port: number;
  /** TLS from the first byte (993), or STARTTLS (143); never without TLS. */
  secure: boolean;
  /** Check the server's certificate (the old server's always is). */
  verify: boolean;
  user: string;
  pass: string;
}

/** A failure that ends the copy at once: retrying cannot help (a wrong password, a bad certificate, a full mailbox). */
export class CopyFailure extends Error {
  constructor(
    /** The message key the screens translate (error.mail_copy_*). */
    readonly key: string,
    /** The server's own words, shown beside it (none for a failure to connect). */
    readonly detail: string | null,
  ) {
    super(detail ? `${key}: ${detail}` : key);
  }
}

const certificateErrors = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME|ALTNAME/i;

/** Every failure to reach the old server, whatever it was: one message, no detail. */
export const unreachable = () => new CopyFailure('error.mail_copy_unreachable', null);

/** What an error says, in one line, without anything we sent (imapflow never puts the password in its errors). */
export const detailOf = (error: unknown): string => {
  const e = error as { responseText?: string; code?: string; message?: string };
  return String(e?.responseText || e?.message || e?.code || error).replace(/\s+/g, ' ').slice(0, 300);
};

export async function connect(endpoint: Endpoint, role: 'source' | 'store', log?: (detail: string) => void): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: endpoint.host.replace(/^\[|\]$/g, ''),
    ...(endpoint.servername ? { servername: endpoint.servername } : {}),
    port: endpoint.port,
    secure: endpoint.secure,
    doSTARTTLS: endpoint.secure ? undefined : true,
    tls: { rejectUnauthorized: endpoint.verify, minVersion: 'TLSv1.2' },
    auth: { user: endpoint.user, pass: endpoint.pass },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    socketTimeout: 120_000,
  });
  // A dropped connection is reported through the next command; an unhandled 'error' would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    client.close();
    const e = error as { authenticationFailed?: boolean; code?: string; message?: string };
    if (role === 'store') throw error; // our own server: retried, it may be restarting
    if (e.authenticationFailed) throw new CopyFailure('error.mail_copy_login_refused', detailOf(error));
    if (certificateErrors.test(`${e.code ?? ''} ${e.message ?? ''}`)) throw new CopyFailure('error.mail_copy_certificate', detailOf(error));
    if (/does not support STARTTLS/i.test(e.message ?? '')) throw new CopyFailure('error.mail_copy_no_tls', detailOf(error));
    log?.(detailOf(error));
    throw unreachable();
  }
}

export async function closeQuietly(client: ImapFlow | undefined) {
  if (!client) return;
  await Promise.race([client.logout().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000))]);
  client.close();
}
