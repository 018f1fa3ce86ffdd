/**
 * Pages are written with `htm` bound to preact's `h` (Node strips types but compiles no JSX) and
 * rendered to a string by preact-render-to-string, which escapes every text and attribute value.
 */
import htm from 'htm';
import { type ComponentChildren, Fragment, h, type VNode } from 'preact';
import { render } from 'preact-render-to-string';

export type Markup = ComponentChildren;

/** html`<p>${text}</p>`: a preact element tree; interpolated values are escaped when rendered. */
type Template = (strings: TemplateStringsArray, ...values: unknown[]) => VNode;
// htm's types describe its CommonJS build; the ESM build Node loads exports the function itself.
export const html = (htm as unknown as { bind(factory: typeof h): Template }).bind(h);

export const renderMarkup = (markup: Markup): string => render(h(Fragment, null, markup));
