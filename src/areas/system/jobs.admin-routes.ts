/** POST /admin/jobs/flush/{job}: run one job now and say what it did. */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { JobRunDocumentSchema } from '../../platform/jobs/job-run-schema.ts';
import { jobNames } from '../../platform/jobs/jobs.ts';
import type { Platform } from '../../platform/modules/area-module.ts';

export function jobsAdminRoutes({ jobs, audit }: Pick<Platform, 'jobs' | 'audit'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: '/admin/jobs/flush/{job}',
      auth: 'admin',
      summary: `Run a job now (${jobNames.join(', ')})`,
      params: { job: Type.String({ description: 'The job name; an unknown one is 404 with the valid names in meta' }) },
      errors: ['notFound'],
      success: { status: 200, schema: JobRunDocumentSchema(Type.Object({}, { additionalProperties: true })) },
      handler: async ({ params: { job } }) => {
        if (!jobs.has(job)) {
          throw new AppError('notFound', {
            source: { parameter: 'job' },
            detail: `unknown job; valid jobs: ${jobs.names().join(', ')}`,
            meta: { validJobs: jobs.names() },
          });
        }
        const outcome = await jobs.run(job);
        await audit.record({
          actor: 'admin',
          action: 'jobs.flush',
          targetType: 'job',
          targetId: job,
          payload: { ran: outcome.ran },
        });
        const report = outcome.ran ? outcome.report : { skipped: outcome.reason };
        return { data: { type: 'jobRuns', id: job, attributes: { job, ran: outcome.ran, report } } };
      },
    }),
  ];
}
