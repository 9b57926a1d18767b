import { CHUNK_LOAD_TIMEOUT_MS } from '@caredeck/domain';
import type { ComponentType } from 'react';
import { loadRestStyles } from './styles/rest';

/** A screen's code could not be loaded (network, time-out after 120 s, or a newer deployment). */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('A part of the application could not be loaded', { cause });
    this.name = 'ChunkLoadError';
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export type PageLoader = () => Promise<ComponentType>;

const noStyles = async () => {};

/**
 * Loads a page's module on demand (01 §2), with the styles of every component (loadRestStyles), giving up after
 * CHUNK_LOAD_TIMEOUT_MS with a ChunkLoadError.
 */
export function lazyPage<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  exportName: keyof M & string,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
  styles: () => Promise<unknown> = loadRestStyles,
): PageLoader {
  return async () => {
    let module: M;
    try {
      [module] = await withTimeout(Promise.all([load(), styles()]), timeoutMs);
    } catch (error) {
      throw new ChunkLoadError(error);
    }
    return module[exportName] as ComponentType;
  };
}

/** A first screen (sign-in, the console frame, the patients list): its styles come with the console (first.css). */
export function firstScreenPage<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  exportName: keyof M & string,
): PageLoader {
  return lazyPage(load, exportName, CHUNK_LOAD_TIMEOUT_MS, noStyles);
}
