/**
 * The real server as `npm start` runs it (`node dist/server/main.js`), as a child process:
 * started, waited for until it prints its address, stopped or killed. buildServer() compiles
 * the server once (no web app is needed for API tests).
 */
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';

export function buildServer() {
  execFileSync(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.server.json'], { stdio: 'inherit' });
}

export async function startServerProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'silent', ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password-1', WEB_ROOT: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address printed:\n${output}`)), 90_000);
    child.stdout.on('data', () => {
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match && output.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  async function call<T = any>(method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ code: number; data: T }> {
    const response = await fetch(`${address}${url}`, {
      method,
      headers: { 'content-type': 'application/json', 'accept-language': 'en', ...headers },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
    return response.json() as Promise<{ code: number; data: T }>;
  }
  return {
    address,
    output: () => output,
    call,
    /** kill -9: no shutdown of any kind. */
    async kill() {
      child.kill('SIGKILL');
      return exited;
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

export type ServerProcess = Awaited<ReturnType<typeof startServerProcess>>;

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
