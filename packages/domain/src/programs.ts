/** The program used when the user has none to choose from (01 §4, §9). */
export const DEFAULT_PROGRAM_ID = 1;

export interface ProgramChoice {
  id: number;
  slug: string;
}

/**
 * The active program id (01 §4): the stored one if the user still belongs to it; otherwise, among several
 * programs, the one with the product's default slug; otherwise the first; with no programs,
 * DEFAULT_PROGRAM_ID. The default slug is a parameter because this package does not depend on contracts.
 */
export function chooseActiveProgram(
  programs: readonly ProgramChoice[],
  storedId: number | null | undefined,
  defaultSlug: string,
): number {
  if (storedId !== null && storedId !== undefined && programs.some((program) => program.id === storedId)) {
    return storedId;
  }
  const preferred =
    programs.length > 1 ? programs.find((program) => program.slug === defaultSlug) : undefined;
  return (preferred ?? programs[0])?.id ?? DEFAULT_PROGRAM_ID;
}
