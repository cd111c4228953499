/** The service file and the reverse-proxy examples in deploy/ are what systemd and the proxies accept. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

it('When systemd-analyze verifies deploy/maildesk.service, then it accepts it, with its hardening options', () => {
  const unit = fs.readFileSync('deploy/maildesk.service', 'utf8');
  for (const option of ['NoNewPrivileges=yes', 'ProtectSystem=strict', 'ProtectHome=yes', 'PrivateTmp=yes', 'ReadWritePaths=/var/lib/maildesk', 'Environment=DATA_DIR=/var/lib/maildesk', 'User=maildesk']) {
    expect(unit).toContain(option);
  }
  // The node of this machine, where the unit says /usr/bin/node (verify checks the program exists).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-unit-'));
  const file = path.join(dir, 'maildesk.service');
  fs.writeFileSync(file, unit.replace('/usr/bin/node', process.execPath));
  const verified = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  expect(verified.error).toBeUndefined();
  expect(verified.stderr).toBe('');
  expect(verified.status).toBe(0);
});

it('When a unit option is misspelt, then systemd-analyze verify says so (the check above can fail)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-unit-'));
  const file = path.join(dir, 'maildesk.service');
  fs.writeFileSync(file, fs.readFileSync('deploy/maildesk.service', 'utf8').replace('/usr/bin/node', process.execPath).replace('ProtectHome=yes', 'ProtectHomes=yes'));
  const verified = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  expect(verified.stderr).toContain('ProtectHomes');
});

it('When the reverse-proxy examples are read, then both serve TLS, pass the request id and keep /metrics private', () => {
  const nginx = fs.readFileSync('deploy/nginx-maildesk.conf', 'utf8');
  expect(nginx).toMatch(/listen 443 ssl;/);
  expect(nginx).toContain('proxy_set_header X-Request-Id $request_id;');
  expect(nginx).toContain('location = /metrics { return 404; }');
  const caddy = fs.readFileSync('deploy/Caddyfile', 'utf8');
  expect(caddy).toContain('health_uri /ready');
  expect(caddy).toContain('respond /metrics 404');
});
