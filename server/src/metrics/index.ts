/** Prometheus metrics of the queue, off by default. */
export { metricsConfigShape, type MetricsConfig } from './config';
export { createMetrics, type MetricsService } from './metrics.service';
