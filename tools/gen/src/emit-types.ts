import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenApiDocument, Spec } from './specs.ts';
import { header } from './files.ts';
import { LIVE_TAG, LIVE_OVERLAY_FILE } from './live.ts';

/** TSDoc for an alias, taken from the schema's description and deprecation. */
function aliasDoc(schema: Record<string, unknown>): string {
  const lines: string[] = [];
  if (typeof schema.description === 'string') lines.push(...schema.description.trim().split('\n'));
  const live = schema[LIVE_TAG] as { actions: string[] } | undefined;
  if (live) {
    if (lines.length) lines.push('');
    lines.push(
      `Live nodes send another form than the document (overlay action \`${live.actions.join('`, `')}\` of ${LIVE_OVERLAY_FILE}):`,
      'the type is the union of both forms.',
    );
  }
  if (schema.deprecated === true) lines.push('@deprecated Part of the deprecated v1 API.');
  if (lines.length === 0) return '';
  return `/**\n${lines.map((l) => ` * ${l.replace(/\*\//g, '*\\/')}`.trimEnd()).join('\n')}\n */\n`;
}

/**
 * The openapi-typescript output of a spec plus one exported alias per schema, so users write
 * `AccountData` rather than `components['schemas']['AccountData']`.
 */
export async function emitTypes(spec: Spec, source: string = spec.file): Promise<string> {
  const ast = await openapiTS(spec.doc as unknown as Parameters<typeof openapiTS>[0], {
    // Objects the documents type only as `object` hold unknown fields, not none.
    emptyObjectsUnknown: true,
    // No `any` in public types: an untyped value is `unknown`.
    defaultNonNullable: true,
  });
  const body = astToString(ast);
  return `${header(source)}\n${body}\n${aliases(spec.doc)}`;
}

function aliases(doc: OpenApiDocument): string {
  const out = ['// One alias per schema.'];
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    out.push(`${aliasDoc(schema)}export type ${name} = components['schemas']['${name}'];`);
  }
  return `${out.join('\n')}\n`;
}
