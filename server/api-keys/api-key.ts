/** An API key's own create: the key is made by the server and answered this once. */
import { apiKey } from '../../resources/api_key.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { inputSchema } from '../core/resource-calls.js';
import { createApiKey, type NewApiKey } from './keys.js';

export const apiKeyBehaviour: ResourceBehaviour = {
  calls: {
    create: {
      summary: (area) =>
        `Make an API key for scripts calling /api/${area} with \`Authorization: Bearer <key>\`. Answers the record with \`key\`: shown this once, never again`,
      input: inputSchema(apiKey, 'create'),
      handler: (input: NewApiKey, ctx) => createApiKey(ctx, input),
    },
  },
};
