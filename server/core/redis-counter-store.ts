/** Rate-limit counters in Redis (REDIS_URL), shared by every instance of the app. */
import { createClient } from 'redis';
import type { CounterStore } from './rate-limit.js';

// One round trip: count, start the window on the first hit, and say how long it still runs.
const incrementScript = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

export async function redisCounterStore(url: string): Promise<CounterStore> {
  const client = createClient({ url });
  client.on('error', () => {}); // reconnects by itself; a failed command still rejects
  await client.connect();
  return {
    async increment(key, windowSeconds) {
      const [count, ttl] = (await client.eval(incrementScript, {
        keys: [`maildesk:rate:${key}`],
        arguments: [String(windowSeconds * 1000)],
      })) as [number, number];
      return { count, resetInSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
    },
    async peek(key) {
      const [count, ttl] = await Promise.all([client.get(`maildesk:rate:${key}`), client.pTTL(`maildesk:rate:${key}`)]);
      return { count: Number(count ?? 0), resetInSeconds: Math.max(0, Math.ceil(ttl / 1000)) };
    },
    async reset(key) {
      await client.del(`maildesk:rate:${key}`);
    },
    async close() {
      await client.quit();
    },
  };
}
