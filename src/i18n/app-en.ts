/** Our own texts every page may show, in English (the fallback language); app-zh.ts must have every key (its type is this one's). */
export const appEn = {
  app: {
    dialog: {
      ok: 'OK',
      cancel: 'Cancel',
      title: { warning: 'WARNING', delete: 'Delete' },
    },
    error: {
      timeout: 'The server did not answer within %{seconds} seconds. Please try again.',
      network: 'The server cannot be reached. Please check your connection.',
    },
    nav: {
      login: 'Sign in',
      register: 'Register',
      profile: 'Profile',
      operator_area: 'Operator sign-in',
    },
    auth: {
      email: 'E-mail address',
      password: 'Password',
      username: 'Username',
      code: 'Verification code',
      send_code: 'Send code',
      code_sent: 'A 6-digit code was sent to %{email}. It is valid for 10 minutes.',
    },
    login: {
      title: 'Sign in to Maildesk',
      by_password: 'With password',
      by_code: 'With e-mailed code',
      submit: 'Sign in',
      to_register: 'No account yet? Register',
      forgot: 'Forgot your password?',
    },
    register: {
      title: 'Create your account',
      intro: 'We will e-mail you a code to confirm your address.',
      username: 'Name (optional)',
      submit: 'Register',
      have_account: 'Already registered? Sign in',
    },
    verify: {
      title: 'Verify your e-mail address',
      intro: 'Enter the 6-digit code we e-mailed you.',
      submit: 'Verify and sign in',
      resend: 'Send a new code',
    },
    forgot: {
      title: 'Reset your password',
      intro: 'We will e-mail you a code with which you can choose a new password.',
      submit: 'Set new password',
      done: 'Your password was changed. Please sign in with the new one.',
    },
    // Team-member invitations (issue 8)
    accept_invitation: {
      title: 'Join the team',
      intro: 'You were invited to manage e-mail as a team member. Choose the password you will sign in with.',
      submit: 'Accept and sign in',
      no_token: 'This page needs the link from your invitation e-mail. Open that link, or ask whoever invited you to send it again.',
    },
    manage_login: {
      title: 'Operator sign-in',
    },
    not_found: {
      title: 'Page not found',
      text: 'The page you asked for does not exist or has moved.',
      home: 'Back to the home page',
    },
    index: {
      title: 'Hosted e-mail for your own domains',
      tagline: 'Bring your domain, prove it is yours, and run mailboxes, aliases and catch-alls from one control panel.',
      start: 'Get started',
      products_title: 'Plans and storage',
      features: {
        domains: { title: 'Your domains', text: 'Add any domain you own and verify it through DNS.' },
        mailboxes: { title: 'Mailboxes', text: 'Create mailboxes with their own password and quota, usable over IMAP and SMTP.' },
        aliases: { title: 'Aliases', text: 'Forward addresses, catch-alls and whole alias domains wherever you need.' },
        storage: { title: 'Storage', text: 'Buy exactly the capacity you need and share it among your mailboxes.' },
      },
    },
    contact: {
      title: 'Contact us',
      intro: 'Questions about the service? Write to us and we will answer by e-mail.',
      name: 'Your name',
      subject: 'Subject',
      content: 'Message',
      send: 'Send message',
      sent: 'Thank you! Your message has been sent.',
    },
    profile: {
      account_title: 'Account',
      username_title: 'Display name',
      username: 'Name',
      password_title: 'Password',
      old_password: 'Current password',
      new_password: 'New password',
      confirm_password: 'Repeat the new password',
      mismatch: 'The passwords do not match',
      password_saved: 'Password changed. Your other sessions were signed out.',
      email_title: 'E-mail address',
      current_email: 'Current address: %{email}',
      new_email: 'New e-mail address',
      code_sent: 'A code was sent to %{email}. Enter it to confirm the change.',
      confirm_email: 'Confirm new address',
      email_saved: 'Your e-mail address was changed.',
      storage_title: 'Mailbox quota',
      storage_max: 'Largest quota of one mailbox (MiB)',
      storage_hint: 'Also the quota new mailboxes get. 1024 MiB = 1 GiB.',
      saved: 'Saved',
    },
    session: {
      expired: 'Your session has ended (signed out elsewhere, expired or revoked). Please sign in again.',
    },
  },
};

export type AppMessages = typeof appEn;
