import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseActiveProgram, DEFAULT_PROGRAM_ID } from './programs';

const defaultSlug = 'caredeck';
const programs = [
  { id: 7, slug: 'cardiology' },
  { id: 12, slug: 'caredeck' },
  { id: 15, slug: 'diabetes' },
];

describe('chooseActiveProgram', () => {
  it('keeps the stored program while the user still has it', () => {
    expect(chooseActiveProgram(programs, 15, defaultSlug)).toBe(15);
  });

  it('prefers the default slug among several programs when nothing usable is stored', () => {
    expect(chooseActiveProgram(programs, null, defaultSlug)).toBe(12);
    expect(chooseActiveProgram(programs, 99, defaultSlug)).toBe(12);
  });

  it('takes the first program when none has the default slug', () => {
    expect(chooseActiveProgram([programs[0]!, programs[2]!], null, defaultSlug)).toBe(7);
  });

  it('takes the only program', () => {
    expect(chooseActiveProgram([{ id: 3, slug: 'solo' }], undefined, defaultSlug)).toBe(3);
  });

  it('falls back to program 1 when the user has none', () => {
    expect(DEFAULT_PROGRAM_ID).toBe(1);
    expect(chooseActiveProgram([], null, defaultSlug)).toBe(1);
    expect(chooseActiveProgram([], 42, defaultSlug)).toBe(1);
  });

  it('always picks one of the user’s programs, the stored one when present', () => {
    const program = fc.record({
      id: fc.integer({ min: 1, max: 50 }),
      slug: fc.constantFrom('caredeck', 'a', 'b'),
    });
    fc.assert(
      fc.property(
        fc.array(program, { maxLength: 6 }),
        fc.option(fc.integer({ min: 1, max: 50 })),
        (list, stored) => {
          const chosen = chooseActiveProgram(list, stored, defaultSlug);
          if (list.length === 0) expect(chosen).toBe(DEFAULT_PROGRAM_ID);
          else expect(list.map((item) => item.id)).toContain(chosen);
          if (stored !== null && list.some((item) => item.id === stored)) expect(chosen).toBe(stored);
        },
      ),
    );
  });
});
