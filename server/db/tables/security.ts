/** Security: second factors (TOTP, recovery codes, passkeys), their short-lived challenges, and who must have one. */
import type { Generated } from 'kysely';
import type { Id, Timestamp } from './columns.js';

/** Whose second factor: a customer login (user.id), an operator (admin.id) or a mailbox owner (mailbox.id). */
export type HolderKind = 'customer' | 'operator' | 'mailbox';

export interface TotpRow {
  id: Id;
  holder_kind: HolderKind;
  holder_id: number;
  secret: string;
  /** Null while enrolling: the authenticator has not shown a right code yet. */
  confirmed_at: Timestamp | null;
  /** The newest 30-second step a code was accepted for. */
  last_step: Generated<number>;
  created_at: Timestamp;
}

export interface RecoveryCodeRow {
  id: Id;
  holder_kind: HolderKind;
  holder_id: number;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface PasskeyRow {
  id: Id;
  holder_kind: HolderKind;
  holder_id: number;
  name: string;
  credential_id: string;
  public_key: string;
  counter: Generated<number>;
  /** JSON array of the authenticator's transports. */
  transports: Generated<string>;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

/** A pending sign-in (sign_in; sign_in_enrol when the person must first enrol), or a WebAuthn ceremony. */
export type ChallengePurpose = 'sign_in' | 'sign_in_enrol' | 'passkey_sign_in' | 'passkey_register';

export interface SecondFactorChallengeRow {
  id: Id;
  token_hash: string;
  purpose: ChallengePurpose;
  holder_kind: HolderKind;
  holder_id: number | null;
  challenge: Generated<string>;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface SecondFactorPolicyRow {
  /** 'operators', or 'team:<customer id>' for a customer's team members. */
  scope: string;
  required: number;
  updated_at: Timestamp;
}

export interface SecurityTables {
  totp: TotpRow;
  recovery_code: RecoveryCodeRow;
  passkey: PasskeyRow;
  second_factor_challenge: SecondFactorChallengeRow;
  second_factor_policy: SecondFactorPolicyRow;
}
