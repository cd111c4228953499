/**
 * Mailbox passwords are checked by Dovecot, not by the panel: argon2id from @node-rs/argon2
 * (parameters in the m,t,p order Dovecot's libsodium reads), stored with its {ARGON2ID}
 * scheme prefix (notes/mail-server.md).
 */
import { hashPassword } from '../core/passwords.js';

export const hashMailboxPassword = async (password: string) => `{ARGON2ID}${await hashPassword(password)}`;
