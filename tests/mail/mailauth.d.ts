/** The part of mailauth's DKIM verifier the mail suite uses (the package ships no types). */
declare module 'mailauth/lib/dkim/verify.js' {
  export function dkimVerify(
    message: Buffer,
    options: { resolver: (name: string, type: string) => Promise<unknown> },
  ): Promise<{ results: { signingDomain?: string; selector?: string; status?: { result?: string } }[] }>;
}

/** mailauth's SPF check (RFC 7208) with a DNS resolver of the test's own. */
declare module 'mailauth/lib/spf/index.js' {
  export function spf(options: {
    sender: string;
    ip: string;
    helo: string;
    mta?: string;
    resolver: (name: string, type: string) => Promise<unknown>;
  }): Promise<{ status: { result: string; comment?: string } }>;
}
