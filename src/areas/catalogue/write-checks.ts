/** Turns a validation problem (validation.ts) into the 422 a service throws. */
import { AppError } from '../../platform/http/error-catalogue.ts';

export function invalid(pointer: string, problem: string | null): void {
  if (problem !== null)
    throw new AppError('validationFailed', { source: { pointer }, detail: `${pointer.slice(1)} ${problem}` });
}
