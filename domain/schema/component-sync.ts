/** Which changes of a pinned component schema break data written against the old one (docs/decisions/0115). */

export type BlockingReason = 'required_field_added_no_default' | 'type_narrowed' | 'field_removed';

export type SchemaProps = { properties?: Record<string, { type?: unknown; default?: unknown }>; required?: string[] };

const typesOf = (type: unknown): string[] => (Array.isArray(type) ? type.map(String) : type === undefined ? [] : [String(type)]);

/**
 * What moving a nested field from one pinned component schema to another would break for data
 * written against the old one: a property removed, a property whose types lost one, a new
 * required property without a default.
 */
export function blockingChanges(path: string, before: SchemaProps, after: SchemaProps): { field_path: string; blocking_reason: BlockingReason }[] {
  const old = before.properties ?? {};
  const next = after.properties ?? {};
  const blocked: { field_path: string; blocking_reason: BlockingReason }[] = [];
  for (const [name, property] of Object.entries(old)) {
    const now = Object.hasOwn(next, name) ? next[name] : undefined;
    if (!now) blocked.push({ field_path: `${path}.${name}`, blocking_reason: 'field_removed' });
    else if (typesOf(property.type).some((t) => !typesOf(now.type).includes(t)) && typesOf(now.type).length > 0) {
      blocked.push({ field_path: `${path}.${name}`, blocking_reason: 'type_narrowed' });
    }
  }
  const wasRequired = new Set(before.required ?? []);
  for (const name of after.required ?? []) {
    const isNew = !wasRequired.has(name);
    if (isNew && (!Object.hasOwn(next, name) || next[name]?.default === undefined)) {
      blocked.push({ field_path: `${path}.${name}`, blocking_reason: 'required_field_added_no_default' });
    }
  }
  return blocked;
}

