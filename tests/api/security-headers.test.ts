/** Headers on every answer: a strict CSP (none at all for calls), no sniffing, no framing, no referrer, nothing cached under /api/, HSTS on https. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let webRoot: string;
beforeAll(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-web-'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
  t = await startTestApp({ WEB_ROOT: webRoot });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});

const csp = (value: string | undefined) => Object.fromEntries((value ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));

it('When a page of the web app is served (app, an area, a path it does not know), then it carries the CSP, nosniff, DENY framing and no referrer', async () => {
  const answers = [await t.app.inject({ method: 'GET', url: '/' }), await t.app.inject({ method: 'GET', url: '/manage/admin' }), await t.app.inject({ method: 'GET', url: '/no/such/page' })];
  for (const answer of answers) {
    const policy = csp(answer.headers['content-security-policy'] as string);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin');
    // PUBLIC_URL is http here: a browser would ignore HSTS, so none is sent.
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  }
});

it('When a call is answered (data, refusal, unknown call, bad JSON), then it allows no sources at all, no framing, no sniffing and no referrer', async () => {
  const answers = [
    await t.app.inject({ method: 'POST', url: '/api/admin/me/info' }),
    await t.app.inject({ method: 'GET', url: '/api/nothing/here' }),
    await t.app.inject({ method: 'POST', url: '/api/admin/login/login', headers: { 'content-type': 'application/json' }, payload: '{' }),
    await t.app.inject({ method: 'GET', url: '/api/openapi.json' }),
  ];
  for (const answer of answers) {
    const policy = csp(answer.headers['content-security-policy'] as string);
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  }
});

it('When the web app is served, then it may be cached, but every answer under /api/ (sessions, data) is no-store', async () => {
  const page = await t.app.inject({ method: 'GET', url: '/' });
  expect(page.headers['content-type']).toMatch(/text\/html/);
  expect(String(page.headers['cache-control'] ?? '')).not.toContain('no-store');
  const login = await t.post('/api/manage/login/login', { username: 'root', password: 'root-password-1' });
  expect(login.code).toBe(0);
  for (const answer of [
    await t.app.inject({ method: 'POST', url: '/api/manage/login/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ username: 'root', password: 'root-password-1' }) }),
    await t.app.inject({ method: 'POST', url: '/api/manage/me/info', headers: { authentication: login.data.token } }),
    await t.app.inject({ method: 'GET', url: '/api/openapi.json' }),
    await t.app.inject({ method: 'GET', url: '/api/nothing' }),
  ]) {
    expect(answer.headers['cache-control']).toBe('no-store');
  }
});

it('When PUBLIC_URL is https, then answers carry HSTS', async () => {
  const secure = await startTestApp({ PUBLIC_URL: 'https://panel.example.com' });
  try {
    const answer = await secure.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(answer.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
  } finally {
    await secure.close();
  }
});
