/** A caption as a Note's HTML content: escaped, paragraphs and line breaks, #tags linked as Mastodon links them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noteContentOf } from './note-content.ts';

const url = 'https://travel.example';
const tag = (name: string, path = name.toLowerCase()) =>
  `<a href="${url}/tags/${path}" class="mention hashtag" rel="tag">#<span>${name}</span></a>`;

describe('a Note content', () => {
  it('is empty for no caption, or one of blanks', () => {
    assert.equal(noteContentOf(null, url), '');
    assert.equal(noteContentOf(' \n ', url), '');
  });

  it('escapes markup, and takes no character entity for a hashtag', () => {
    assert.equal(
      noteContentOf(`<script>alert("x")</script> it's #1 & <b>`, url),
      `<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; it&#39;s ${tag('1')} &amp; &lt;b&gt;</p>`,
    );
  });

  it('makes paragraphs of blank lines and <br> of other breaks, and links every #tag', () => {
    assert.equal(
      noteContentOf('Dawn in #Lisboa\r\nby the river\n\n\n#Tejo #café_noir', url),
      `<p>Dawn in ${tag('Lisboa')}<br>by the river</p><p>${tag('Tejo')} ${tag('café_noir', 'caf%C3%A9_noir')}</p>`,
    );
  });
});
