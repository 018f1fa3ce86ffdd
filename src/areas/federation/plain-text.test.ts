/**
 * Remote HTML is read in time linear in its size: an inbox takes up to 1 MB, and a note made of
 * unclosed tags must not hold the queue's worker for minutes (a lazy pattern rescanning the rest of
 * the text for each tag did). Each input here is a few hundred kB; read as before, each took from
 * seconds to minutes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Note } from '@fedify/fedify/vocab';
import { commentTextOf } from './inbound/remote-comments-note.ts';
import { plainTextOf } from './plain-text.ts';

const origin = 'https://travel.example';
const noteOf = (content: string) => ({ content, summary: null }) as unknown as Note;

/** Milliseconds `fn` takes. */
function timed(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

describe('federation: remote HTML made plain text', () => {
  it('reads notes of many unclosed tags in one pass', () => {
    const hostile = {
      styles: '<style'.repeat(100_000),
      anchors: '<a href="x">y'.repeat(40_000),
      hrefs: `<a ${'href="x" '.repeat(60_000)}`,
      quotes: '<a href="'.repeat(60_000),
    };
    for (const [name, html] of Object.entries(hostile)) {
      assert.ok(timed(() => plainTextOf(html, 5000, true)) < 2000, `${name}: plainTextOf`);
      assert.ok(timed(() => commentTextOf(noteOf(html), origin)) < 2000, `${name}: commentTextOf`);
    }
  });

  it('still drops scripts and styles with their content, and reads mentions and links', () => {
    assert.equal(plainTextOf('<p>a<script>alert(1)</script>b<style>p{}</style>c</p>', 100), 'abc');
    assert.equal(plainTextOf('<p>before</p><style>an unclosed style', 100, true), 'before');
    const note = noteOf(
      '<p><span class="h-card"><a href="https://travel.example/@bob" class="u-url mention">@<span>bob</span></a></span> ' +
        '<a href=\'https://mastodon.example/@ana\'>@ana</a> see <a href="https://x.example/page">the page</a></p>',
    );
    assert.equal(commentTextOf(note, origin), '@bob @ana@mastodon.example see the page');
  });
});
