import { useEffect, useState } from 'preact/hooks';
import { api, env, type Page } from '../api';
import { ErrorMessage, isApiError, Labeled } from '../ui';

export type Property = { type?: string | string[]; enum?: unknown[]; pattern?: string; format?: string; 'x-localizable'?: boolean; properties?: Record<string, Property>; additionalProperties?: Property | boolean };
export type JsonSchema = { properties?: Record<string, Property>; required?: string[] };
type Values = Record<string, unknown>;

const typeOf = (p: Property): string => (Array.isArray(p.type) ? (p.type.find((t) => t !== 'null') ?? 'string') : (p.type ?? 'json'));
/** `^(c1|c2)::...`: the collections a reference field points into. */
const targetsOf = (p: Property): string[] | null => p.pattern?.match(/^\^\(([^)]+)\)::/)?.[1]?.split('|') ?? null;

/** Field messages of a refusal, by top-level field: `detail.errors[].path`, `detail.fields`, or `detail.{field}`. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!isApiError(error) || !error.detail || typeof error.detail !== 'object') return {};
  const detail = error.detail as { errors?: { path?: string; json_path?: string; message?: string }[]; fields?: string[] };
  const out: Record<string, string> = {};
  const field = (path: string) => path.replace(/^\$?\.?\/?/, '').split(/[/.]/)[0] ?? '';
  for (const e of detail.errors ?? []) out[field(e.path ?? e.json_path ?? '')] = e.message ?? error.message;
  for (const f of detail.fields ?? []) out[field(f)] = error.message;
  for (const [name, messages] of Object.entries(detail)) if (Array.isArray(messages) && name !== 'errors' && name !== 'fields') out[name] = messages.join(', ');
  return out;
}

function ReferencePicker({ targets, value, onChange, id, label }: { targets: string[]; value: unknown; onChange: (v: unknown) => void; id: string; label: string }) {
  const [options, setOptions] = useState<{ value: string; label: string }[]>([]);
  useEffect(() => {
    Promise.all(targets.map((c) => api<Page<{ key: string; name: string | null }>>('GET', env(`/collections/${c}/resources/?limit=100`)).then((p) => p.results.map((r) => ({ value: `${c}::${r.key}`, label: `${r.name ?? r.key} (${c})` }))))).then(
      (lists) => setOptions(lists.flat()),
      () => setOptions([]),
    );
  }, [targets.join()]);
  return (
    <select id={id} aria-label={label} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value || undefined)}>
      <option value="">(none)</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** One input for a value of `p`'s type. */
function Input({ p, value, onChange, id, label, invalid }: { p: Property; value: unknown; onChange: (v: unknown) => void; id: string; label: string; invalid: boolean }) {
  const type = typeOf(p);
  const common = { id, 'aria-label': label, 'aria-invalid': invalid || undefined };
  const targets = targetsOf(p);
  if (targets) return <ReferencePicker targets={targets} value={value} onChange={onChange} id={id} label={label} />;
  if (p.enum)
    return (
      <select {...common} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value === '' ? undefined : p.enum!.find((c) => String(c) === e.currentTarget.value))}>
        <option value="">(none)</option>
        {p.enum.map((c) => (
          <option key={String(c)}>{String(c)}</option>
        ))}
      </select>
    );
  if (type === 'boolean') return <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />;
  if (type === 'integer' || type === 'number')
    return <input {...common} type="number" step={type === 'number' ? 'any' : '1'} value={value === undefined ? '' : String(value)} onInput={(e) => onChange(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))} />;
  const typed = (e: { currentTarget: HTMLInputElement }) => onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value);
  if (type === 'string' && p.format === 'date') return <input {...common} type="date" value={String(value ?? '')} onInput={typed} />;
  if (type === 'string') return <input {...common} type="text" value={String(value ?? '')} onInput={typed} />;
  // Objects, arrays, json and vectors: JSON text, parsed on submit.
  return <textarea {...common} rows={3} value={typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)} onInput={(e) => onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value)} />;
}

/** Text typed into a JSON field becomes its value; everything else is already typed. */
function parsed(schema: JsonSchema, values: Values): Values {
  const out: Values = {};
  for (const [name, value] of Object.entries(values)) {
    const p = schema.properties?.[name];
    const json = p && !p['x-localizable'] && !['string', 'integer', 'number', 'boolean'].includes(typeOf(p));
    if (value !== undefined) out[name] = json && typeof value === 'string' ? JSON.parse(value) : value;
  }
  return out;
}

/** No initial data (one object, so the form does not start over at each render). */
const EMPTY: Values = {};

/**
 * A form generated from a published JSON Schema: one control per property, one per locale for
 * localizable ones, a picker of the target collection's resources for references, and the
 * server's validation messages at their fields.
 */
export function ResourceForm({ schema, initial = EMPTY, label, modes, submit }: { schema: JsonSchema; initial?: Values; label: string; modes?: boolean; submit: (data: Values, mode: string, name: string) => Promise<unknown> }) {
  const [values, setValues] = useState<Values>(initial);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [locales, setLocales] = useState<string[]>(['en']);
  useEffect(() => void api<{ code: string }[]>('GET', env('/locales/')).then((l) => setLocales(l.map((x) => x.code)), () => undefined), []);
  useEffect(() => setValues(initial), [initial]);
  const errors = fieldErrors(error);
  const required = new Set(schema.required ?? []);
  return (
    <form
      class="write resource-form"
      noValidate
      aria-label={label}
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        setBusy(true);
        setError(null);
        try {
          await submit(parsed(schema, values), String(form.get('mode') ?? 'instant'), String(form.get('resource_name') ?? '').trim());
        } catch (failure) {
          setError(failure);
        } finally {
          setBusy(false);
        }
      }}
    >
      {modes ? (
        <Labeled label="Resource name (optional)">
          <input name="resource_name" />
        </Labeled>
      ) : null}
      {Object.entries(schema.properties ?? {}).map(([name, p]) => {
        const message = errors[name];
        const described = message ? `error-${name}` : undefined;
        const title = `${name}${required.has(name) ? ' (required)' : ''}`;
        const set = (v: unknown) => setValues({ ...values, [name]: v });
        return (
          <fieldset key={name} class={message ? 'prop invalid' : 'prop'} aria-describedby={described} data-field={name}>
            <legend>{title}</legend>
            {p['x-localizable'] ? (
              locales.map((code) => {
                const localized = (values[name] ?? {}) as Values;
                const sub = p.properties?.[code] ?? (typeof p.additionalProperties === 'object' ? p.additionalProperties : {});
                return (
                  <div class="locale" key={code}>
                    <label for={`f-${name}-${code}`}>{code}</label>
                    <Input p={sub} id={`f-${name}-${code}`} label={`${name} (${code})`} invalid={!!message} value={localized[code]} onChange={(v) => set(Object.fromEntries(Object.entries({ ...localized, [code]: v }).filter(([, x]) => x !== undefined)))} />
                  </div>
                );
              })
            ) : (
              <Input p={p} id={`f-${name}`} label={name} invalid={!!message} value={values[name]} onChange={set} />
            )}
            {message ? (
              <small class="field-error" id={described}>
                {message}
              </small>
            ) : null}
          </fieldset>
        );
      })}
      {modes ? (
        <Labeled label="When">
          <select name="mode">
            <option value="instant">Publish now</option>
            <option value="draft">Save as draft</option>
          </select>
        </Labeled>
      ) : null}
      <button type="submit" disabled={busy}>
        {label}
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}
