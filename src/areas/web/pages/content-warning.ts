/**
 * A photo marked sensitive by its author or a moderator (media's content warnings), as the pages and
 * the explorer's photo panel show it: blurred behind its warning for viewers who blur (visitors, and
 * signed-in viewers whose blurSensitiveMedia is on), else plainly with the warning in words.
 */
import { html, type Markup } from '../layout/html.ts';

/** The page's translator (components.ts `translator`). */
type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * A media marked sensitive, blurred behind its warning until clicked, without any script: a checkbox
 * (visually hidden, reachable by keyboard) and its label over the blurred photo; checking it unblurs the
 * photo and takes the label away (site.css, .sensitive). Other media, and every media for a viewer who
 * turned blurring off, are the photo itself.
 */
export function behindWarning(t: Translate, media: MediaWarning, revealId: string, blur: boolean, photo: Markup) {
  if (!media.authorSensitive || !blur) return photo;
  return html`<div class="sensitive">
    <input class="sensitive__reveal" type="checkbox" id=${revealId} />
    <label class="sensitive__cover" for=${revealId}>
      <span class="sensitive__warning">${media.contentWarning ?? t('web.media.sensitive')}</span>
      <span class="sensitive__show">${t('web.media.showSensitive')}</span>
    </label>
    <div class="sensitive__photo">${photo}</div>
  </div>`;
}

/** What a warning reads of a media. */
export interface MediaWarning {
  authorSensitive: boolean;
  contentWarning: string | null;
}

/** A photo's warning said in words, where the photo is not blurred (the viewer turned blurring off). */
export function warningNote(t: Translate, media: MediaWarning, blur: boolean) {
  if (!media.authorSensitive || blur) return null;
  return html`<span class="sensitive-note">${media.contentWarning ?? t('web.media.sensitive')}</span>`;
}
