/** nodemailer, loaded on the first mail rather than at start-up (most starts send none). */
let loading: Promise<typeof import('nodemailer')> | null = null;

export function loadNodemailer() {
  loading ??= import('nodemailer');
  return loading;
}
