/**
 * API keys: customers (and their team members) and operators make keys for scripts, which call
 * their area's API with `Authorization: Bearer <key>` and the rights of the key's maker, read-only
 * or read-write, until the key expires or is revoked. What a key may not do is the call
 * machinery's rule (core/calls.ts: `keys`, `reads`).
 */
import { apiKey } from '../../resources/api_key.js';
import { defineCapability } from '../core/capability.js';
import { keyAuthenticators } from './authenticate.js';
import { apiKeyBehaviour } from './api-key.js';

export const apiKeys = defineCapability({
  name: 'api-keys',
  resources: [{ declaration: apiKey, behaviour: apiKeyBehaviour }],
  keyAuthenticators,
});
