/** A plain-text table: the first column left-aligned, the others right-aligned, padded to fit. */
export function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) =>
    widths
      .map((width, column) => {
        const cell = row[column] ?? '';
        return column === 0 ? cell.padEnd(width) : cell.padStart(width);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export function perSecond(value: number): string {
  return `${Math.round(value).toLocaleString('en-US')} /s`;
}

export function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

/** value / ceiling as a fraction of the ceiling. */
export function fraction(value: number, ceiling: number): string {
  return (value / ceiling).toFixed(3);
}

/** value / ceiling as a multiple of it (latencies: how many ceiling latencies). */
export function multiple(value: number, ceiling: number): string {
  return `${(value / ceiling).toFixed(1)}x`;
}

export const NONE = '-';
