/** The `jobRuns` resource an admin route answers after running a job now: its name, whether it ran, its report. */
import { type TSchema, Type } from 'typebox';
import { DocumentSchema, ResourceSchema } from '../http/jsonapi.ts';

export const JobRunDocumentSchema = (report: TSchema, name = 'JobRun') =>
  DocumentSchema(
    ResourceSchema(
      'jobRuns',
      Type.Object({
        job: Type.String(),
        ran: Type.Boolean({ description: 'false when this instance was running the job already' }),
        report,
      }),
      undefined,
      name,
    ),
  );
