// Tests the MIME reader of test/support/smtp-sink.ts, which the mail tests rely on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import MailComposer from 'nodemailer/lib/mail-composer';
import { parseMail } from '../../../test/support/smtp-sink.ts';

const text = 'Bonjour Zoé,\n\nConfirmez votre adresse : https://example.test/confirm?token=abc\n\nÀ bientôt, l’équipe.';
const html =
  '<p>Bonjour Zoé,</p><p><a href="https://example.test/confirm?token=abc">Confirmer</a> — à bientôt, l’équipe.</p>';
const subject =
  'Confirmez votre adresse e-mail — bienvenue à bord de la communauté des voyageurs, Zoé ! Ça va être génial';

function compose(options: ConstructorParameters<typeof MailComposer>[0]): Promise<Buffer> {
  return new MailComposer({ from: 'Travel <no-reply@example.test>', to: 'zoe@example.test', ...options })
    .compile()
    .build();
}

describe('parseMail', () => {
  it('reads a quoted-printable text and HTML alternative with French accents and a long encoded subject', async () => {
    const raw = await compose({ subject, text: `${text}\n${'très long '.repeat(30)}`, html });
    assert.match(raw.toString('latin1'), /=C3=A9/, 'nodemailer used quoted-printable');
    assert.match(raw.toString('latin1'), /\?=\r\n /, 'the subject was folded into several encoded words');

    const mail = parseMail(raw);

    assert.equal(mail.subject, subject);
    assert.equal(mail.text, `${text}\n${'très long '.repeat(30)}`);
    assert.equal(mail.html, html);
    assert.equal(mail.headers.to, 'zoe@example.test');
    assert.equal(mail.headers.from, 'Travel <no-reply@example.test>');
  });

  it('reads base64 parts', async () => {
    const raw = await compose({ subject: 'Réinitialisation', text, html, textEncoding: 'base64' });
    assert.match(raw.toString('latin1'), /Content-Transfer-Encoding: base64/);

    const mail = parseMail(raw);

    assert.equal(mail.subject, 'Réinitialisation');
    assert.equal(mail.text, text);
    assert.equal(mail.html, html);
  });

  it('finds the body inside multipart/mixed and does not take a text attachment for the text part', async () => {
    const raw = await compose({
      subject: 'Reçu',
      html,
      attachments: [{ filename: 'note.txt', content: 'pièce jointe', contentType: 'text/plain' }],
    });
    assert.match(raw.toString('latin1'), /multipart\/mixed/);

    const mail = parseMail(raw);

    assert.equal(mail.html, html);
    assert.equal(mail.text, '');
  });

  it('joins encoded words that split a character and decodes other charsets', () => {
    // 'é' is C3 A9 in UTF-8; here its two bytes sit in two encoded words.
    const raw = [
      'Subject: =?UTF-8?B?Q2Fmw6kgw6AgUGFyaXMgww==?=',
      ' =?UTF-8?Q?=A9t=C3=A9?= et =?ISO-8859-1?Q?No=EBl?=',
      'Content-Type: text/plain; charset="ISO-8859-1"',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Gr=E2ce =E0 vous, c=27est un long =',
      'message.',
    ].join('\r\n');

    const mail = parseMail(raw);

    assert.equal(mail.subject, 'Café à Paris été et Noël');
    assert.equal(mail.text, "Grâce à vous, c'est un long message.");
    assert.equal(mail.html, '');
  });

  it('takes raw UTF-8 in an 8bit message as it is', () => {
    const mail = parseMail('Subject: Déjà vu\nContent-Type: text/html; charset=utf-8\n\n<p>Où êtes-vous ?</p>');

    assert.equal(mail.subject, 'Déjà vu');
    assert.equal(mail.html, '<p>Où êtes-vous ?</p>');
  });
});
