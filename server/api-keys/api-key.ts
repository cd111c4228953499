/** An API key's own create: the key is made by the server and answered this once. */
import { apiKey } from '../../resources/api_key.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { inputSchema } from '../core/resource-calls.js';
import { confirmation, confirmIdentity } from '../security/confirm-identity.js';
import { createApiKey, type NewApiKey } from './keys.js';

export const apiKeyBehaviour: ResourceBehaviour = {
  calls: {
    create: {
      summary: (area) =>
        `Make an API key for scripts calling /api/${area} with \`Authorization: Bearer <key>\`. Answers the record with \`key\`: shown this once, never again`,
      // A key outlives the session it is made from: the person proves it is them again.
      input: inputSchema(apiKey, 'create').extend({ confirmation }),
      async handler({ confirmation: given, ...input }: NewApiKey & { confirmation: string }, ctx) {
        await confirmIdentity(ctx, given);
        return createApiKey(ctx, input);
      },
    },
  },
};
