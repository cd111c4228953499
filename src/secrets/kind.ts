/**
 * A kind of secret made for programs (API keys, mailbox app passwords), as the shared page and
 * dialog need it: where its texts are, its class names, and its calls.
 */
export interface SecretKind {
  /** Its texts are `app.<texts>.*`: create, make, none, revoke, revoke_confirm, revoked, created_title, … */
  texts: string;
  /** The stem of its class names: `api-key` → .api-key-create, .api-keys-list, .api-key-row, .api-key-created, … */
  name: string;
  /** Its calls in the area: `<resource>/list`, `<resource>/delete`. */
  resource: string;
}
