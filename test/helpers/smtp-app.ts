/** An app whose mail goes over real SMTP to a local sink (test/support/smtp-sink.ts), and its closing. */
import { type SmtpSink, smtpMailer, startSmtpSink } from '../support/smtp-sink.ts';
import { createTestApp, type TestApp } from './app.ts';

export async function startAppWithSmtpSink(): Promise<{ t: TestApp; sink: SmtpSink; close(): Promise<void> }> {
  const sink = await startSmtpSink();
  const t = await createTestApp({ deps: { mailer: smtpMailer(sink.url) } });
  return {
    t,
    sink,
    async close() {
      await t.close();
      await sink.close();
    },
  };
}
