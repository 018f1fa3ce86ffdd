/**
 * JSON files: one array of row objects. Each element keeps the line it starts on, found by a scan of
 * the (already parsed, so valid) text, so an import report names lines in both formats.
 */
import { CliError } from '../../../cli/command.ts';
import type { SourceRow } from './csv-rows.ts';

export function jsonRows(text: string): SourceRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new CliError(`the file is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new CliError('a JSON import file holds one array of objects');
  const lines = elementLines(text);
  return parsed.map((value, index) => ({ line: lines[index] ?? 1, value }));
}

/** The line each element of the top-level array starts on. */
function elementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectingElement = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (char === '\n') line++;
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (/\s/.test(char)) continue;
    if (depth === 1 && expectingElement && char !== ']') {
      lines.push(line);
      expectingElement = false;
    }
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      depth++;
      if (depth === 1) expectingElement = true;
    } else if (char === ']' || char === '}') depth--;
    else if (char === ',' && depth === 1) expectingElement = true;
  }
  return lines;
}
