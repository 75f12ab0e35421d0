// What changed between two tables the page showed: the new lines of the last moves.

/** The entries of ``now`` that ``before`` did not end with: ``last`` is a rolling list, so
 * the longest suffix of ``before`` that starts ``now`` is what was already shown. */
export function newEntries(before: readonly string[], now: readonly string[]): string[] {
  for (let overlap = Math.min(before.length, now.length); overlap > 0; overlap--) {
    let same = true;
    for (let i = 0; i < overlap; i++) {
      if (before[before.length - overlap + i] !== now[i]) {
        same = false;
        break;
      }
    }
    if (same) return now.slice(overlap);
  }
  return [...now];
}
