/**
 * Reads an upload (`multipart/form-data`): exactly one `file` part and the optional text fields a
 * route names. The file is buffered up to maxUploadBytes; anything larger is 413 before it is stored.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/http/error-catalogue.ts';

export const maxUploadBytes = 20 * 1024 * 1024;
// 2000 characters of up to 4 UTF-8 bytes each; the routes check characters.
const maxFieldBytes = 8000;

export interface UploadForm {
  file: Buffer;
  fields: Record<string, string>;
}

/** @fastify/multipart settings for the upload routes (registered in their own scope). */
export const multipartOptions = {
  limits: { fileSize: maxUploadBytes, files: 1, fields: 5, fieldSize: maxFieldBytes, parts: 6, headerPairs: 50 },
};

export async function readUploadForm(request: FastifyRequest, allowedFields: readonly string[]): Promise<UploadForm> {
  if (!request.isMultipart()) {
    throw new AppError('unsupportedMediaType', {
      source: { header: 'Content-Type' },
      detail: 'uploads are multipart/form-data with a file part',
    });
  }
  let file: Buffer | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new AppError('validationFailed', {
            source: { pointer: `/${part.fieldname}` },
            detail: 'the file part must be named "file"',
          });
        }
        file = await part.toBuffer();
      } else {
        if (!allowedFields.includes(part.fieldname)) {
          throw new AppError('validationFailed', {
            source: { pointer: `/${part.fieldname}` },
            detail: 'this field is not allowed',
          });
        }
        if (part.valueTruncated) {
          throw new AppError('validationFailed', {
            source: { pointer: `/${part.fieldname}` },
            detail: `longer than ${maxFieldBytes} bytes`,
          });
        }
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('fileTooLarge', {
        source: { pointer: '/file' },
        values: { maxMegabytes: maxUploadBytes / 1024 / 1024 },
        meta: { maxBytes: maxUploadBytes },
      });
    }
    if (code === 'FST_FILES_LIMIT') {
      throw new AppError('validationFailed', { source: { pointer: '/file' }, detail: 'send exactly one file' });
    }
    if (error instanceof AppError) throw error;
    // Limits and other framework refusals carry their 4xx status; the error handler maps them.
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status < 500) throw error;
    // Anything else the parser throws is a body it could not read: no boundary, cut short, garbage.
    throw new AppError('badRequest', {
      source: { header: 'Content-Type' },
      detail: `the multipart body is malformed: ${(error as Error).message}`,
    });
  }
  if (file === null || file.length === 0) {
    throw new AppError('fileMissing', {
      source: { pointer: '/file' },
      detail: file === null ? 'no file part' : 'the file is empty',
    });
  }
  return { file, fields };
}

/** An optional boolean form field ("true" or "false"). */
export function booleanField(fields: Record<string, string>, name: string): boolean | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new AppError('validationFailed', { source: { pointer: `/${name}` }, detail: 'expected "true" or "false"' });
}
