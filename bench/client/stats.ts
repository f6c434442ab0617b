/** Small helpers for the client benchmarks: medians, number formatting, tables. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Spread of a sample: its interquartile range over its median, to show how noisy a figure is. */
export function spread(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => {
    const i = (sorted.length - 1) * q;
    const lo = Math.floor(i);
    return sorted[lo] + (sorted[Math.ceil(i)] - sorted[lo]) * (i - lo);
  };
  return (at(0.75) - at(0.25)) / median(values);
}

/** 1234567 → "1,234,567"; fractional values keep `digits` decimals. */
export function num(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return String(value);
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function ratio(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return `${value >= 100 ? num(value) : value >= 10 ? num(value, 1) : num(value, 2)}×`;
}

/** A spread as "±N%" (half the interquartile range). */
export function pct(value: number): string {
  return `±${num(value * 50)}%`;
}

/** A share: "1.5%". */
export function share(value: number): string {
  return `${num(value * 100, value < 0.1 ? 1 : 0)}%`;
}

/** A plain-text table: the first row is the header; columns after the first are right-aligned. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const line = (row: readonly string[]) =>
    row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}
