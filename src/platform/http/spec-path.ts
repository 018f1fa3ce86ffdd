/** A Fastify route URL in the interface's style: `{param}` instead of `:param`. */
export const toSpecPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
