import type { FileSet } from './files.ts';
import type { Spec } from './specs.ts';

/** Placeholder until the validators emitter lands (same session). */
export async function emitValidators(_specs: { node: Spec; price: Spec }): Promise<FileSet> {
  return new Map();
}
