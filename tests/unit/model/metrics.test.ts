import { describe, expect, test } from 'vitest';
import { HEADLINE_METRICS, METRICS, metricValue } from '../../../src/model/metrics';
import { signalMetrics } from '../../../src/core/calibration';
import { parseReport } from '../../../src/formats/report-import';
import { sampleReport } from '../share/report-fixture';

describe('the metrics table', () => {
  const computed = signalMetrics([0.9, 0.2, 0.6, 0.6, 0.8], [1, 0, 1, 0, 1]);

  test('one entry per metric the core computes (reliability bins and smooth ECE\'s bandwidth apart), keys and CLI keys unique', () => {
    // The bandwidth is not a metric: it is where smooth ECE was evaluated, shown beside it.
    const keys = Object.keys(computed).filter((k) => k !== 'bins' && k !== 'binsEqualMass' && k !== 'smoothEceBandwidth');
    expect(Object.keys(computed)).toContain('smoothEceBandwidth');
    expect(METRICS.map((m) => m.key).sort()).toEqual(keys.sort());
    expect(new Set(METRICS.map((m) => m.cli)).size).toBe(METRICS.length);
    for (const m of METRICS) expect(m.cli).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(HEADLINE_METRICS.map((m) => m.key)).toEqual(['brier', 'auroc']);
  });

  test('a table value is the metric (Brier: its score), with a direction and digits', () => {
    for (const m of METRICS) {
      const v = metricValue(computed, m.key);
      expect(v).toBe(m.key === 'brier' ? computed.brier.score : computed[m.key]);
      expect(Number.isInteger(m.digits)).toBe(true);
    }
    expect(METRICS.find((m) => m.key === 'auroc')!.better).toBe('higher');
    expect(METRICS.find((m) => m.key === 'ece')!.better).toBe('lower');
  });

  test('the report schema requires every metric of the table', () => {
    for (const m of METRICS) {
      const doc = JSON.parse(JSON.stringify(sampleReport()));
      delete doc.models[0].metrics.signals.sem1[m.key];
      const r = parseReport(doc);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toContain(`models[0].metrics.signals.sem1.${m.key}`);
    }
  });
});
