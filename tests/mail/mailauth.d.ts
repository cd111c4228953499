/** The part of mailauth's DKIM verifier the mail suite uses (the package ships no types). */
declare module 'mailauth/lib/dkim/verify.js' {
  export function dkimVerify(
    message: Buffer,
    options: { resolver: (name: string, type: string) => Promise<unknown> },
  ): Promise<{ results: { signingDomain?: string; selector?: string; status?: { result?: string } }[] }>;
}
