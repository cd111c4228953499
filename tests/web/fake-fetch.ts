/** A stand-in for the network in client tests: records each request and answers from a script. */
export interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export function fakeFetch(answer: (request: Sent) => { status?: number; body: unknown } | Promise<never>) {
  const sent: Sent[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const request: Sent = {
      url,
      method: String(init.method),
      headers: init.headers as Record<string, string>,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    };
    sent.push(request);
    const reply = answer(request);
    if (reply instanceof Promise) {
      // Never answers; gives up only when the client aborts.
      return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    }
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, sent };
}

export const never = () => new Promise<never>(() => undefined);
