/**
 * Installs the layout on the app (the web area does it when it registers its routes): the viewer
 * lookup and tile origin pageContext reads, the HTML error pages, the stylesheet's route and the
 * language switch's route.
 */
import { setHtmlErrorPage } from '../../../platform/http/error-handler.ts';
import type { App } from '../../../platform/http/types.ts';
import { renderErrorPage } from './error-page.ts';
import { type LayoutSettings, setLayoutSettings } from './page-context.ts';

export function installLayout(app: App, settings: LayoutSettings): void {
  setLayoutSettings(app, settings);
  setHtmlErrorPage(app, renderErrorPage);
}
