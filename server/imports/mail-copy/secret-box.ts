/** The secret box is shared (server/core/secret-box.ts): an old server's password during a copy is sealed with it. */
export { open, seal } from '../../core/secret-box.js';
