/** The service file and the reverse-proxy examples in deploy/ are what systemd and the proxies accept. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinModules } from 'node:module';
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

/** Every package that code run by the installed panel imports (statically, dynamically, or resolved by name). */
function packagesImportedAtRunTime(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        const text = fs.readFileSync(file, 'utf8');
        const specifiers = [
          ...[...text.matchAll(/^\s*(?:import|export)\s(?!type\s)[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]),
          ...[...text.matchAll(/^\s*import\s+'([^']+)'/gm)].map((m) => m[1]),
          ...[...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]),
          ...[...text.matchAll(/(?:\brequire|\brequire\.resolve|\)\.resolve)\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]),
        ];
        for (const spec of specifiers) {
          if (spec.startsWith('.') || spec.startsWith('node:')) continue;
          found.set(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0], file);
        }
      }
    }
  };
  for (const dir of ['server', 'resources', 'deploy']) walk(dir);
  return found;
}

it('When the guide installs with npm prune --omit=dev, then every package the server, the command line and the generator import is still there (a production dependency)', () => {
  const { dependencies } = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  const builtin = new Set(builtinModules);
  const imported = packagesImportedAtRunTime();
  // The scan sees what the server really loads at start-up.
  expect([...imported.keys()]).toEqual(expect.arrayContaining(['fastify', 'kysely', 'imapflow', '@node-rs/argon2', 'pg-boss']));
  const missing = [...imported].filter(([name]) => !(name in dependencies) && !builtin.has(name)).map(([name, file]) => `${name} (${file})`);
  expect(missing).toEqual([]);
});
