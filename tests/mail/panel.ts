/**
 * The panel's API as the mail suites call it: `api` answers the envelope, `ok` its data or throws
 * (with the panel's error log, `serverLog`, when the panel failed: 5xxxx).
 */
export function panelApi(baseUrl: () => string, defaultToken: () => string, serverLog: () => string = () => '') {
  async function api(path: string, body: Record<string, unknown> = {}, token = defaultToken(), method: 'GET' | 'POST' = 'POST') {
    const url = new URL(baseUrl() + path);
    if (method === 'GET') for (const [k, v] of Object.entries(body)) url.searchParams.set(k, String(v));
    const response = await fetch(url, {
      method,
      headers: { authentication: token, 'content-type': 'application/json', 'accept-language': 'en' },
      body: method === 'POST' ? JSON.stringify(body) : undefined,
    });
    return (await response.json()) as { code: number; data: any; message: string; params?: any };
  }
  async function ok(path: string, body: Record<string, unknown> = {}, token = defaultToken(), method: 'GET' | 'POST' = 'POST') {
    const reply = await api(path, body, token, method);
    if (reply.code !== 0) throw new Error(`${path}: ${reply.code} ${reply.message} ${JSON.stringify(reply)}${reply.code >= 50000 ? `\nthe panel's errors:\n${serverLog().slice(-4000)}` : ''}`);
    return reply.data;
  }
  return { api, ok };
}
