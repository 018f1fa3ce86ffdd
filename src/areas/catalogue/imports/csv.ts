/**
 * RFC 4180 CSV: comma-separated, fields optionally in double quotes (a quote inside doubled, commas and
 * line breaks allowed inside), CRLF or LF line ends, an optional UTF-8 byte-order mark. Each record
 * keeps the file line it starts on, so an import report can name it. A malformed record (text after a
 * closing quote) carries `error` and the parser goes on with the next line; an unclosed quote makes
 * the rest of the file that one malformed record.
 */

export interface CsvRecord {
  line: number;
  fields: string[];
  error?: string;
}

/** Every record of the text, blank lines skipped. */
export function parseCsv(text: string): CsvRecord[] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let afterQuote = false;
  let fieldStarted = false;
  let error: string | undefined;

  const endField = () => {
    fields.push(field);
    field = '';
    afterQuote = false;
    fieldStarted = false;
  };
  const endRecord = () => {
    endField();
    if (error !== undefined) records.push({ line: recordLine, fields, error });
    else if (!(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields });
    fields = [];
    error = undefined;
  };

  for (let i = 0; i < input.length; i++) {
    const char = input[i];
    if (quoted) {
      if (char === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
          afterQuote = true;
        }
      } else {
        if (char === '\n') line++;
        field += char;
      }
      continue;
    }
    if (char === ',') {
      endField();
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && input[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else if (char === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (afterQuote) {
      error ??= 'malformed CSV: text after a closing quote';
    } else {
      field += char;
      fieldStarted = true;
    }
  }
  if (quoted) error = 'malformed CSV: a quoted field is never closed';
  if (field !== '' || fields.length > 0 || afterQuote || error !== undefined) endRecord();
  return records;
}
