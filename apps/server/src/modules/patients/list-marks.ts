/**
 * Page marks of a program's unfiltered patient list: the sort values of every MARK_STEP-th row, per order,
 * for one version of the program's patients (`program_patient_counts.version`, moved on by every write to
 * them). A deep page by number is then sought from the mark before it and skips fewer than MARK_STEP rows,
 * where an OFFSET scan skipped up to half the program (50,000 index entries at 100,000 patients). Kept in
 * memory per process; built in the background after a deep page missed them, at most one build per order
 * at a time and one per BUILD_PAUSE_MS, so a program whose patients change all the time simply keeps the
 * OFFSET path.
 */
export const MARK_STEP = 1000;
const BUILD_PAUSE_MS = 2000;
const MAX_ORDERS = 500;

export type Marks = { version: number; keys: unknown[][] };

export function createListMarks() {
  const marks = new Map<string, Marks>();
  const building = new Set<string>();
  const lastBuild = new Map<string, number>();
  return {
    /** The marks of this order if they are of this version. */
    get(key: string, version: number): Marks | null {
      const m = marks.get(key);
      return m && m.version === version ? m : null;
    },
    /** Builds the marks of an order in the background (never throws, never waits). */
    build(key: string, load: () => Promise<Marks>): void {
      const now = Date.now();
      if (building.has(key) || now - (lastBuild.get(key) ?? 0) < BUILD_PAUSE_MS) return;
      building.add(key);
      lastBuild.set(key, now);
      load()
        .then((m) => {
          if (marks.size >= MAX_ORDERS && !marks.has(key)) marks.delete(marks.keys().next().value!);
          marks.set(key, m);
        })
        .catch(() => undefined)
        .finally(() => building.delete(key));
    },
    clear(): void {
      marks.clear();
      lastBuild.clear();
    },
  };
}

/** This process's marks. */
export const listMarks = createListMarks();
