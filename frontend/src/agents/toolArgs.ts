import type { ToolDescriptor } from './api.ts';

/** A starting point for a tool's arguments: each field's default, else an example of its type. */
export function exampleArgs(tool: ToolDescriptor): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(tool.parameters.properties ?? {})) {
    if (field.default !== undefined) args[name] = field.default;
    else if (field.enum && field.enum.length > 0) args[name] = field.enum[0];
    else if (field.type === 'number' || field.type === 'integer') args[name] = 1;
    else if (field.type === 'boolean') args[name] = false;
    else if (field.type === 'array') args[name] = [];
    else args[name] = '';
  }
  return args;
}

/** The arguments as typed in the JSON box: an object, or why it is not one. */
export function parseArgs(text: string): { ok: true; args: Record<string, unknown> } | { ok: false } {
  try {
    const value: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ok: true, args: value as Record<string, unknown> } : { ok: false };
  } catch {
    return { ok: false };
  }
}
