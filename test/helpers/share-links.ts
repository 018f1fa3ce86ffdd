/** A visitor's side of a share link: its password form posted as a browser posts it. */
import type { TestApp } from './app.ts';

export const submitSharePassword = (t: TestApp, token: string, password: string) =>
  t.request({
    method: 'POST',
    url: `/s/${token}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    payload: new URLSearchParams({ password }).toString(),
  });
