let sequence = 0;
/** A suffix unique within the process, for names and slugs a test does not care about. */
export function unique(): string {
  sequence += 1;
  return `${process.pid.toString(36)}${Date.now().toString(36)}${sequence}`;
}
