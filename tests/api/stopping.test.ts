/**
 * Stopping (SIGTERM, a rolling upgrade): the requests under way are answered, and the stop then
 * ends, whatever keep-alive connections its clients hold. rspamd asks for its maps on several
 * connections at once every few seconds; a stop that began while they were under way waited
 * 72 s (Fastify's keep-alive timeout) for them to be idle and closed.
 */
import net from 'node:net';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.js';

it('When the server stops while a keep-alive request is under way, then that request is answered, its connection is closed and the stop ends', async () => {
  const t = await startTestApp();
  let stopped = false;
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const client = net.connect(port, '127.0.0.1');
    await once(client, 'connect');
    let answer = '';
    client.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const hungUp = once(client, 'end');

    // The request has begun (its headers are in) but its body is still on its way as the stop begins.
    client.write('POST /api/admin/login/login HTTP/1.1\r\nHost: maildesk.test\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stop = t.close().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stopped).toBe(false);
    client.write('}');

    // Answered (a refusal of the empty sign-in), then hung up on: the client need not hang up first.
    await hungUp;
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":4');
    await stop;
    expect(stopped).toBe(true);
  } finally {
    if (!stopped) await t.close().catch(() => undefined);
  }
}, 20_000);

it('When the server stops while a client holds a connection it has sent nothing on (a browser opens them ahead of need), then the stop closes it and ends', async () => {
  const t = await startTestApp();
  let stopped = false;
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const spare = net.connect(port, '127.0.0.1');
    await once(spare, 'connect');
    const hungUp = once(spare, 'close');
    await t.close();
    stopped = true;
    await hungUp;
    expect(spare.bytesRead).toBe(0);
  } finally {
    if (!stopped) await t.close().catch(() => undefined);
  }
}, 20_000);
