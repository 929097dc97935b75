/** JSON Schema (the subset Parley's TypeBox schemas produce) → a TypeScript type expression. */

export type JsonSchema = boolean | {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  description?: string;
  /** Still served, superseded: the generated member is marked `@deprecated`. */
  deprecated?: boolean;
  format?: string;
};

export interface TsOptions {
  /** How a `$ref` becomes a type name, e.g. `#/components/schemas/X` → `Schemas['X']`. */
  ref(ref: string): string;
  /** Indentation of the lines the type starts on. */
  indent?: string;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function propertyKey(name: string): string {
  return IDENT.test(name) ? name : JSON.stringify(name);
}

/** The doc comment of a member `schema` describes (`@deprecated` last where it says so); empty when it says nothing. */
export function docComment(schema: JsonSchema, indent: string): string {
  const description = typeof schema === 'object' ? schema.description : undefined;
  const deprecated = typeof schema === 'object' && schema.deprecated === true;
  const text = [description?.replaceAll('*/', '* /').replaceAll('\n', ' ') ?? '', deprecated ? '@deprecated' : ''].filter((t) => t).join(' ');
  return text ? `${indent}/** ${text} */\n` : '';
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

/** The TypeScript type of `schema`. Throws on a keyword it does not understand, so nothing is silently `any`. */
export function schemaToTs(schema: JsonSchema, opts: TsOptions): string {
  const indent = opts.indent ?? '';
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (schema.$ref) return opts.ref(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return union(schema.enum.map((v) => JSON.stringify(v)));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return union(alternatives.map((s) => wrap(schemaToTs(s, opts))));
  if (schema.allOf) return schema.allOf.map((s) => wrap(schemaToTs(s, opts))).join(' & ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return union(types.map((t) => schemaToTs({ ...schema, type: t }, opts)));
  switch (types[0]) {
    case undefined:
      return schema.properties ? objectToTs(schema, opts, indent) : 'unknown';
    case 'string':
      return schema.format === 'binary' ? 'Uint8Array' : 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(schemaToTs(schema.items ?? true, opts))}[]`;
    case 'object':
      return objectToTs(schema, opts, indent);
    default:
      throw new Error(`unsupported JSON Schema type ${String(types[0])}`);
  }
}

function wrap(type: string): string {
  return /[|&]/.test(type) && !/^\{[\s\S]*\}$/.test(type) ? `(${type})` : type;
}

function objectToTs(schema: Exclude<JsonSchema, boolean>, opts: TsOptions, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const type = schemaToTs(prop, { ...opts, indent: inner });
    lines.push(`${docComment(prop, inner)}${inner}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${type};`);
  }
  const extra = schema.additionalProperties ?? Object.values(schema.patternProperties ?? {})[0];
  if (extra !== undefined && extra !== false) {
    const type = schemaToTs(extra === true || Object.keys(extra).length === 0 ? true : extra, { ...opts, indent: inner });
    if (lines.length === 0) return `Record<string, ${type}>`;
    lines.push(`${inner}[key: string]: ${type === 'unknown' ? 'unknown' : 'unknown'};`);
  }
  if (lines.length === 0) return 'Record<string, never>';
  return `{\n${lines.join('\n')}\n${indent}}`;
}
