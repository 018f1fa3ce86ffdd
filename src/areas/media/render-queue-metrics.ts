/** The render queue's state at each scrape: `tms_media_renders{state="queued"}` is its length. */
import type { Metrics } from '../../platform/metrics/metrics.ts';
import type { RenderQueueCounters } from './render-queue.ts';

export function registerRenderQueueMetrics(metrics: Metrics, renders: { renderCounters(): RenderQueueCounters }) {
  metrics.gauge(
    'tms_media_renders',
    'Image renders by state: queued (the render queue length) and running',
    ['state'],
    () => {
      const { queued, running } = renders.renderCounters();
      return [
        { labels: { state: 'queued' }, value: queued },
        { labels: { state: 'running' }, value: running },
      ];
    },
  );
}
